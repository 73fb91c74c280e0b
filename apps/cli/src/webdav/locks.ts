/**
 * WebDAV class 2 locks (RFC 4918 section 6-7), held in the bridge's memory: enough for clients
 * that lock before writing (macOS Finder, Windows, office suites) to mount the drive writable.
 * They guard writes made through this bridge only: the server knows nothing of them, so the web
 * app and other clients are not held back (docs/cli.md "WebDAV").
 */

export interface Lock {
  token: string;
  /** Canonical path ('/a/b', each segment as nameKey compares it). */
  path: string;
  deep: boolean;
  exclusive: boolean;
  owner: string;
  timeoutSeconds: number;
  expiresAt: number;
}

const MAX_TIMEOUT_SECONDS = 3600;
const DEFAULT_TIMEOUT_SECONDS = 600;

/** Seconds from a Timeout header ('Second-600', 'Infinite'), capped. */
export function timeoutOf(header: string | null): number {
  const match = /^\s*Second-(\d{1,10})/i.exec(header ?? '');
  if (match) return Math.max(1, Math.min(Number(match[1]), MAX_TIMEOUT_SECONDS));
  return /^\s*Infinite/i.test(header ?? '') ? MAX_TIMEOUT_SECONDS : DEFAULT_TIMEOUT_SECONDS;
}

/** The lock tokens an If header names (its length capped first). */
export function tokensIn(header: string | null): string[] {
  return [...(header ?? '').slice(0, 8192).matchAll(/<(opaquelocktoken:[0-9a-f-]{36})>/g)].map((match) => match[1]!);
}

const within = (path: string, root: string) => path === root || path.startsWith(root === '/' ? '/' : `${root}/`);

export class LockTable {
  private readonly locks = new Map<string, Lock>();

  private live(): Lock[] {
    const now = Date.now();
    for (const [token, lock] of this.locks) if (lock.expiresAt <= now) this.locks.delete(token);
    return [...this.locks.values()];
  }

  /** Locks that cover `path` (on it, or deep on a folder above it). */
  covering(path: string): Lock[] {
    return this.live().filter((lock) => lock.path === path || (lock.deep && within(path, lock.path)));
  }

  /** Whether a write to `path` (and, for `deep`, everything under it) may go on with the tokens given. */
  mayWrite(path: string, tokens: readonly string[], deep = false): boolean {
    const held = this.live().filter(
      (lock) => lock.path === path || (lock.deep && within(path, lock.path)) || (deep && within(lock.path, path)),
    );
    return held.every((lock) => tokens.includes(lock.token));
  }

  /** A new lock, or undefined when one in the way conflicts (423). */
  lock(path: string, deep: boolean, exclusive: boolean, owner: string, timeoutSeconds: number): Lock | undefined {
    const inTheWay = this.live().filter(
      (lock) => lock.path === path || (lock.deep && within(path, lock.path)) || (deep && within(lock.path, path)),
    );
    if (inTheWay.some((lock) => lock.exclusive || exclusive)) return undefined;
    const lock: Lock = {
      token: `opaquelocktoken:${crypto.randomUUID()}`,
      path,
      deep,
      exclusive,
      owner,
      timeoutSeconds,
      expiresAt: Date.now() + timeoutSeconds * 1000,
    };
    this.locks.set(lock.token, lock);
    return lock;
  }

  /** Refreshes the lock on `path` named by one of `tokens`. */
  refresh(path: string, tokens: readonly string[], timeoutSeconds: number): Lock | undefined {
    const lock = this.covering(path).find((candidate) => tokens.includes(candidate.token));
    if (!lock) return undefined;
    lock.timeoutSeconds = timeoutSeconds;
    lock.expiresAt = Date.now() + timeoutSeconds * 1000;
    return lock;
  }

  unlock(path: string, token: string): boolean {
    const lock = this.covering(path).find((candidate) => candidate.token === token);
    if (!lock) return false;
    this.locks.delete(token);
    return true;
  }

  /** A resource moved or deleted takes its locks (and those under it) along. */
  drop(path: string): void {
    for (const lock of this.live()) if (within(lock.path, path)) this.locks.delete(lock.token);
  }
}
