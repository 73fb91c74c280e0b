/** A request answered with an error status: callers decide by `status` (e.g. no retry on 4xx). */
export class HttpStatusError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = 'HttpStatusError';
    this.status = status;
  }
}
