/**
 * Bun prints a test's error above its "(fail)" line, and a long run scrolls it far from the
 * summary (CI keeps only the tail): each failing test's block is repeated at the end. An error
 * thrown after a file's last test (a stray timer, a child process's callback) fails the file
 * with no "(fail)" line: bun frames it as an "Unhandled error between tests", reported too.
 */
export function failureReports(out: string, maxLines = 80): string[] {
  const lines = out.split('\n');
  const reports: string[] = [];
  let start = 0;
  for (const [i, line] of lines.entries()) {
    // Bun's own closing list repeats the names without their errors: the blocks end there.
    if (/^\s*\d+ tests? failed:$/.test(line)) break;
    if (line.startsWith('# Unhandled error between tests')) {
      const end = lines.findIndex((l, j) => j > i + 1 && /^-{5,}$/.test(l));
      reports.push(
        lines
          .slice(i, end === -1 ? i + maxLines : Math.min(end + 1, i + maxLines))
          .join('\n')
          .trim(),
      );
      start = end === -1 ? i + 1 : end + 1;
    } else if (line.startsWith('(fail)')) {
      const block = lines.slice(Math.max(start, i - maxLines), i + 1);
      // A timeout says so just below the name ("  ^ this test timed out after ...").
      for (let next = i + 1; next < lines.length && /^\s+\^ /.test(lines[next]!); next++) block.push(lines[next]!);
      reports.push(block.join('\n').trim());
      start = i + 1;
    } else if (/^\((pass|skip|todo)\)/.test(line) || /^\S.*\.(test|spec)\.tsx?:$/.test(line)) start = i + 1;
  }
  return reports;
}

/** What to show for a runner that failed without a report above: the last lines it printed. */
export function exitReport(out: string, code: number, maxLines = 40): string {
  const tail = out.trimEnd().split('\n').slice(-maxLines).join('\n');
  return `exited with code ${code} and no failing test named; its last lines:\n${tail}`;
}
