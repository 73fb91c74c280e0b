/**
 * A start signal for background work that should not compete with a burst of searches: `done`
 * resolves `quietMs` after the last `touch()`, and at the latest `atMostMs` after the first one,
 * or at once on `now()`. Nothing starts before the first touch. (docs/web-files.md "Search",
 * names first: the chunks open once the first searches have been answered from the names.)
 */
export class AfterPause {
  readonly done: Promise<void>;
  private resolve: () => void = () => undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private latest: number | undefined;
  private started = false;

  constructor(
    private readonly quietMs: number,
    private readonly atMostMs: number,
  ) {
    this.done = new Promise((resolve) => {
      this.resolve = resolve;
    });
  }

  /** Something asked (a search, the page): wait for the next pause, within the limit. */
  touch(): void {
    if (this.started) return;
    this.latest ??= Date.now() + this.atMostMs;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.now(), Math.min(this.quietMs, Math.max(0, this.latest - Date.now())));
  }

  /** Something needs the work done (a change to the index, a logout): start it now. */
  now(): void {
    if (this.started) return;
    this.started = true;
    clearTimeout(this.timer);
    this.resolve();
  }
}
