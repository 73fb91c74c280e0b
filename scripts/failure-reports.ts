/**
 * Bun prints a test's error above its "(fail)" line, and a long run scrolls it far from the
 * summary (CI keeps only the tail): each failing test's block is repeated at the end.
 */
export function failureReports(out: string, maxLines = 80): string[] {
  const lines = out.split('\n');
  const reports: string[] = [];
  let start = 0;
  for (const [i, line] of lines.entries()) {
    const isResult = /^\((pass|skip|todo)\)/.test(line) || /^\S.*\.(test|spec)\.tsx?:$/.test(line);
    if (line.startsWith('(fail)')) {
      // A repeat in bun's own closing list has no block above it; only the first sighting counts.
      const block = lines
        .slice(Math.max(start, i - maxLines), i + 1)
        .join('\n')
        .trim();
      if (!reports.some((r) => r.endsWith(line))) reports.push(block);
      start = i + 1;
    } else if (isResult) start = i + 1;
  }
  return reports;
}
