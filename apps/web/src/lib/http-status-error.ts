/** A request answered with an error status: callers decide by `status` (e.g. no retry on 4xx). */
export class HttpStatusError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = 'HttpStatusError';
    this.status = status;
  }
}

/** A 403 or 404: the item is gone or not the caller's to see (the server answers both alike). */
export function isNoAccess(error: unknown): boolean {
  return error instanceof HttpStatusError && (error.status === 403 || error.status === 404);
}
