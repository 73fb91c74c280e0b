/**
 * The arithmetic and policies of transfers, free of crypto and I/O so they are tested alone
 * (docs/protocol.md "Part protocol"). Sizes come in as arguments: the worker passes the real
 * PART_BYTES / CHUNK of @sealbox/crypto, the UI thread never imports that package.
 */
import { NO_SPACE_TEXT, TOO_LARGE_TEXT } from '@sealbox/rules';
import { formatBytes } from '../lib/format-size.ts';
import { displayName, visibleText } from './item-names.ts';
import { retryAfterSeconds, tooManyRequestsText } from '../lib/rate-limit.ts';

/** Part n of a blob covers ciphertext [n * partBytes, ...) and plaintext [n * partPlainBytes, ...). */
export interface PartGeometry {
  /** Plaintext size of the file. */
  plainSize: number;
  /** Ciphertext size (what the server stores). */
  cipherSize: number;
  /** Ciphertext bytes per part (PART_BYTES). */
  partBytes: number;
  /** Plaintext bytes per part (PART_CHUNKS * CHUNK). */
  partPlainBytes: number;
}

export function partTotal(g: PartGeometry): number {
  return Math.max(1, Math.ceil(g.cipherSize / g.partBytes));
}

/** Plaintext byte range [start, end) whose encryption is part n. */
export function plainRangeOfPart(g: PartGeometry, n: number): { start: number; end: number } {
  const start = n * g.partPlainBytes;
  return { start, end: Math.min(g.plainSize, start + g.partPlainBytes) };
}

/** Ciphertext length of part n (what PUT .../part/n must carry). */
export function cipherLengthOfPart(g: PartGeometry, n: number): number {
  const start = n * g.partBytes;
  return Math.min(g.cipherSize, start + g.partBytes) - start;
}

/** Parts still to send, ascending: every part of [0, total) the server has not received. */
export function missingParts(total: number, received: Iterable<number>): number[] {
  const have = new Set(received);
  const missing: number[] = [];
  for (let n = 0; n < total; n++) if (!have.has(n)) missing.push(n);
  return missing;
}

/**
 * How a transfer is sent: one POST with the whole ciphertext when it fits in one part,
 * otherwise the part protocol, re-encrypting from the first missing part's first chunk.
 */
export type SendPlan =
  | { kind: 'single' }
  | { kind: 'parts'; total: number; send: number[]; startPart: number; startChunk: number; startByte: number };

export function planParts(g: PartGeometry, received: Iterable<number> = [], chunkBytes: number): SendPlan {
  if (g.cipherSize <= g.partBytes) return { kind: 'single' };
  const total = partTotal(g);
  const send = missingParts(total, received);
  const startPart = send[0] ?? total;
  const startByte = Math.min(g.plainSize, startPart * g.partPlainBytes);
  return { kind: 'parts', total, send, startPart, startChunk: startByte / chunkBytes, startByte };
}

/* ---------------------------------------------------------------- retries */

/** Every part is tried at most this many times. */
export const PART_TRIES = 3;
/** Parts in flight at once. */
export const PARTS_IN_FLIGHT = 3;

/** What one attempt ended with: an HTTP status, or a network failure (fetch threw). */
export type AttemptOutcome = { status: number } | { networkError: true };

/** Network failures and 5xx (the server's 503 for a stalled part included) are worth another try; 4xx never. */
export function isRetryable(outcome: AttemptOutcome): boolean {
  if ('networkError' in outcome) return true;
  return outcome.status >= 500 && outcome.status <= 599;
}

/** Delay before try `attempt + 1` after `attempt` failed tries (1-based): 500 ms, 1.5 s, ... with ±20 % jitter. */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  const base = 500 * 3 ** Math.max(0, attempt - 1);
  return Math.round(base * (0.8 + 0.4 * random()));
}

/**
 * Runs `attempt` up to `tries` times. It resolves with a Response (any status) or throws on a
 * network failure; retryable outcomes wait `retryDelayMs` and go again. Returns the last Response
 * (the caller maps a non-ok one to its message); rethrows the last network error.
 */
export async function withRetries(
  attempt: () => Promise<Response>,
  options: { tries?: number; sleep?: (ms: number) => Promise<void>; random?: () => number; signal?: AbortSignal } = {},
): Promise<Response> {
  const tries = options.tries ?? PART_TRIES;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  for (let n = 1; ; n++) {
    let outcome: AttemptOutcome;
    let response: Response | undefined;
    let failure: unknown;
    try {
      response = await attempt();
      outcome = { status: response.status };
    } catch (error) {
      if (options.signal?.aborted) throw error;
      failure = error;
      outcome = { networkError: true };
    }
    if (!isRetryable(outcome) || n >= tries) {
      if (response) return response;
      throw failure;
    }
    // The body of a failed answer is not needed; release the connection.
    await response?.body?.cancel().catch(() => {});
    await sleep(retryDelayMs(n, options.random));
  }
}

/* ---------------------------------------------------------------- resume */

export interface ResumeRecordShape {
  /** Plaintext size and last modification time the upload started with. */
  size: number;
  lastModified: number;
  /** Each part's fingerprint (hex; workers/transfers/parts.ts), recorded when that part started. */
  partHashes: Record<number, string>;
}

export type ResumeDecision = { resume: true } | { resume: false; reason: 'size' | 'hash' };

/**
 * A resumed upload continues the same (K, fileNonce) stream, which is safe only over the same
 * plaintext: every part that ever started must give the same fingerprint in the re-picked file.
 * `pickedHashes` are the picked file's fingerprints for exactly the parts in `record.partHashes`.
 */
export function decideResume(
  record: ResumeRecordShape,
  picked: { size: number },
  pickedHashes: Record<number, string>,
): ResumeDecision {
  if (picked.size !== record.size) return { resume: false, reason: 'size' };
  for (const [n, hash] of Object.entries(record.partHashes)) {
    if (pickedHashes[Number(n)] !== hash) return { resume: false, reason: 'hash' };
  }
  return { resume: true };
}

/* ---------------------------------------------------------------- messages */

/** The server's 402 and 405 (@sealbox/rules). */
export const MSG_NO_SPACE = NO_SPACE_TEXT;
export const MSG_TOO_LARGE = TOO_LARGE_TEXT;
export const MSG_NO_FILE = 'No file selected.';
export const MSG_PROFILE_LOADING = 'Please wait for your profile to load before uploading files.';
export const MSG_DOWNLOAD_FAILED = 'Error downloading file/folder. Please try again.';
export const MSG_DECRYPT_FAILED = 'Unable to decrypt file for download. Please try again.';
/**
 * docs/product.md "Messages" text, and why: the data (or the listing that describes it) was altered
 * or does not belong to this file. Trying again gets the same answer from the same server, so it
 * says so.
 */
export const MSG_INTEGRITY_FAILED = `${MSG_DECRYPT_FAILED} The file's data failed its integrity check, so nothing was saved; trying again will not help while the server sends the same data.`;
/** A folder whose listing or contents failed their integrity check. */
export const MSG_FOLDER_INTEGRITY_FAILED =
  'Unable to download folder. Its data failed its integrity check, so the download stopped; trying again will not help while the server sends the same data.';
export const MSG_FOLDER_FAILED = 'Unable to download folder';
export const MAX_FILE_SIZE_LABEL = 'Max File Size: 1GB';

/**
 * docs/product.md "Messages" message for an upload answer that failed with `status` (a 429 says
 * when to try again).
 */
export function uploadErrorMessage(status: number, retryAfter?: string | null): string {
  if (status === 402) return MSG_NO_SPACE;
  if (status === 405 || status === 413) return MSG_TOO_LARGE;
  if (status === 404) return 'The upload expired or the folder is gone.';
  if (status === 403) return 'You do not have permission to upload files here';
  if (status === 429) return tooManyRequestsText(retryAfterSeconds(retryAfter));
  return `Upload failed (${status}). Please try again.`;
}

/**
 * "1 file", "3 files": a count and its noun, singular for one. Every count-bearing transfer text
 * goes through here (docs/web-files.md "Feedback": the product's exact texts are kept where the
 * count makes them grammatical).
 */
export function countOf(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * docs/product.md "States" summary of a finished batch; undefined while nothing has finished. Its
 * exact texts where the count makes them grammatical, the singular for one (docs/web-files.md
 * "Feedback").
 */
export function summaryText(succeeded: number, failed: number): string | undefined {
  const total = succeeded + failed;
  if (total === 0) return undefined;
  if (failed === 0) return total === 1 ? '1 file uploaded successfully!' : `All ${total} files uploaded successfully!`;
  if (succeeded === 0)
    return total === 1
      ? '1 file failed to upload. Check errors below.'
      : `All ${total} files failed to upload. Check errors below.`;
  return `${countOf(succeeded, 'file')} uploaded successfully, ${countOf(failed, 'file')} failed.`;
}

/** The panel's header while transfers run: uploads and downloads apart, "Uploading 1 file · Downloading 2 items". */
export function runningText(uploads: number, downloads: number): string {
  const parts = [];
  if (uploads > 0) parts.push(`Uploading ${countOf(uploads, 'file')}`);
  if (downloads > 0) parts.push(`Downloading ${countOf(downloads, 'item')}`);
  return parts.join(' · ');
}

/** What the profile says of the account's space (GET /api/profile). */
export interface SpaceShape {
  usedSpace: number;
  totalSpace: number;
  /** Held by unfinished uploads. */
  reservedSpace?: number;
}

/**
 * The 402's docs/product.md "Messages" text with what it means for this file: used and free of
 * total, and what the file needs (docs/web-files.md "Feedback"); the bare text when the profile
 * is unknown. Used counts what unfinished uploads hold.
 */
export function noSpaceText(space: SpaceShape | null | undefined, needed: number): string {
  if (!space) return MSG_NO_SPACE;
  const used = Math.min(space.totalSpace, space.usedSpace + (space.reservedSpace ?? 0));
  const free = Math.max(0, space.totalSpace - used);
  const total = formatBytes(space.totalSpace);
  return `${MSG_NO_SPACE}: ${formatBytes(used)} used, ${formatBytes(free)} free of ${total}; this file needs ${formatBytes(needed)}`;
}

/* ---------------------------------------------------------------- display */

/** How far one transfer is, 0..1, from the bytes it has moved of the bytes it moves in all. */
export function fractionOf(moved: number, total: number): number {
  if (!(total > 0)) return 0;
  return Math.min(1, Math.max(0, moved / total));
}

/**
 * The panel's overall bar: the listed transfers weighted by their size (a finished one counts
 * whole, a cancelled or failed one not at all), the summed speed of those running, and the time
 * left at that speed (undefined while nothing moves: no made-up estimate).
 */
export function overallProgress(
  rows: ReadonlyArray<{ size: number; fraction: number; speed: number; state: 'running' | 'done' | 'stopped' }>,
): { fraction: number; speed: number; secondsLeft: number | undefined } {
  let total = 0;
  let moved = 0;
  let speed = 0;
  for (const row of rows) {
    if (row.state === 'stopped') continue;
    // An empty file still counts as one byte, so it moves the bar when it finishes.
    const size = Math.max(1, row.size);
    total += size;
    moved += row.state === 'done' ? size : size * row.fraction;
    if (row.state === 'running') speed += row.speed;
  }
  // Nothing but failed or cancelled transfers: an empty bar, not a full one.
  const fraction = total > 0 ? moved / total : 0;
  const running = rows.some((r) => r.state === 'running');
  const secondsLeft = running && speed > 0 ? (total - moved) / speed : undefined;
  return { fraction, speed: running ? speed : 0, secondsLeft };
}

/** Bytes per second over a sliding window of recent samples. */
export class SpeedMeter {
  private samples: Array<{ at: number; bytes: number }> = [];
  constructor(private readonly windowMs = 3000) {}

  /** Records the running total `bytes` at time `at` (ms) and returns the current speed. */
  sample(bytes: number, at: number): number {
    this.samples.push({ at, bytes });
    while (this.samples.length > 2 && at - this.samples[0]!.at > this.windowMs) this.samples.shift();
    const first = this.samples[0]!;
    const elapsed = at - first.at;
    return elapsed > 0 ? ((bytes - first.bytes) * 1000) / elapsed : 0;
  }
}

/* ---------------------------------------------------------------- download names */

/** The saved name of a download of `items`: one file as itself, one folder as "name.zip", several as "Sealbox files.zip". */
export function downloadName(items: ReadonlyArray<{ name: string | null; isDirectory: boolean }>): string {
  const only = items.length === 1 ? items[0] : undefined;
  if (!only) return 'Sealbox files.zip';
  const name = safeSegment(displayName(only));
  return only.isDirectory ? `${name}.zip` : name;
}

/** Names Windows keeps for devices, with or without an extension ("CON", "nul.txt", "COM1"). */
const WINDOWS_DEVICE = /^(?:con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3])(?:\..*)?$/iu;

/**
 * A name safe as one path segment of a zip entry or a saved file, on any system the file may be
 * unpacked on: no path separators, drive colons ("C:") or other characters Windows refuses, no
 * control or bidi characters, no device name, no trailing dot or space, at most 255 characters.
 */
export function safeSegment(name: string): string {
  let cleaned = visibleText(name)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is removed
    .replace(/[\u0000-\u001f\u007f/\\<>:"|?*]/g, '_')
    .trim();
  let end = cleaned.length;
  while (end > 0 && (cleaned[end - 1] === '.' || cleaned[end - 1] === ' ')) end--;
  cleaned = cleaned.slice(0, end) + '_'.repeat(cleaned.length - end);
  if (cleaned === '') return '_';
  return (WINDOWS_DEVICE.test(cleaned) ? `_${cleaned}` : cleaned).slice(0, 255);
}

/** Makes `name` unique within `taken` (case-insensitively): "a.txt", "a (2).txt", ... */
export function uniqueName(name: string, taken: Set<string>): string {
  let candidate = name;
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const ext = dot > 0 ? name.slice(dot) : '';
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${ext}`;
  taken.add(candidate.toLowerCase());
  return candidate;
}

/** Content-Disposition for a download: an ASCII fallback plus the UTF-8 name (RFC 6266 / 5987). */
export function contentDisposition(name: string): string {
  const fallback = safeSegment(name)
    .replace(/[^\x20-\x7e]/g, '_')
    .replace(/["%;]/g, '_');
  const encoded = encodeURIComponent(safeSegment(name)).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
