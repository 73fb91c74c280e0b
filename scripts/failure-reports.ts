/**
 * Bun prints a test's error above its "(fail)" line, and a long run scrolls it far from the
 * summary (CI keeps only the tail): each failing test's block is repeated at the end.
 */
export function failureReports(out: string, maxLines = 80): string[] {
  const lines = out.split('\n');
  const reports: string[] = [];
  let start = 0;
  for (const [i, line] of lines.entries()) {
    // Bun's own closing list repeats the names without their errors: the blocks end there.
    if (/^\s*\d+ tests? failed:$/.test(line)) break;
    if (line.startsWith('(fail)')) {
      const block = lines.slice(Math.max(start, i - maxLines), i + 1);
      // A timeout says so just below the name ("  ^ this test timed out after ...").
      for (let next = i + 1; next < lines.length && /^\s+\^ /.test(lines[next]!); next++) block.push(lines[next]!);
      reports.push(block.join('\n').trim());
      start = i + 1;
    } else if (/^\((pass|skip|todo)\)/.test(line) || /^\S.*\.(test|spec)\.tsx?:$/.test(line)) start = i + 1;
  }
  return reports;
}
