/**
 * The wall time of each test file of a `bun test` run, read off its output as it streams: bun
 * names a file ("e2e/smoke.test.ts:") when it starts it, so a file runs from its name to the
 * next file's name, or to the summary (" 12 pass"). A web build that a file's import waited
 * for ("web app built in 41.2 s") is noted beside it.
 */
export class FileTimes {
  readonly #now: () => number;
  #current: { file: string; started: number } | undefined;
  readonly #seconds = new Map<string, number>();
  readonly #notes = new Map<string, string>();

  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
  }

  /** A sink for one output stream (stdout and stderr each need their own: lines arrive in pieces). */
  stream(): { write(text: string): void } {
    let partial = '';
    return {
      write: (text: string) => {
        const lines = (partial + text).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) this.#line(line);
      },
    };
  }

  #line(line: string): void {
    const started = /^(\S.*\.(?:test|spec)\.[cm]?[jt]sx?):$/.exec(line);
    if (started) {
      this.#end();
      this.#current = { file: started[1]!, started: this.#now() };
      return;
    }
    if (/^\s*\d+ pass$/.test(line)) this.#end();
    const built = /^web app built in ([\d.]+) s/.exec(line);
    if (built && this.#current) this.#notes.set(this.#current.file, `includes building the web app, ${built[1]} s`);
  }

  #end(): void {
    if (!this.#current) return;
    const { file, started } = this.#current;
    this.#seconds.set(file, (this.#seconds.get(file) ?? 0) + (this.#now() - started) / 1000);
    this.#current = undefined;
  }

  /** The files under `prefix`, slowest first, with their total. */
  table(prefix: string): string[] {
    const rows = [...this.#seconds].filter(([file]) => file.startsWith(prefix)).sort((a, b) => b[1] - a[1]);
    if (rows.length === 0) return [];
    const total = rows.reduce((sum, [, seconds]) => sum + seconds, 0);
    return [
      ...rows.map(([file, seconds]) => {
        const note = this.#notes.get(file);
        return `${seconds.toFixed(1).padStart(7)} s  ${file}${note ? `  (${note})` : ''}`;
      }),
      `${total.toFixed(1).padStart(7)} s  in all, ${rows.length} file${rows.length === 1 ? '' : 's'}`,
    ];
  }
}
