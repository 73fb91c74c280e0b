/**
 * The check after a journey (docs/protocol.md: nothing the server stores or logs contains a plaintext
 * name, mime type, key or content): every byte under the server's data directory (database and
 * blobs) and everything it printed, searched for what the journey put in.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { toBase64, toBase64Url } from '@sealbox/crypto';
import type { RunningServer } from './server.ts';

export interface Stored {
  path: string;
  bytes: Buffer;
}

export interface Needle {
  what: string;
  bytes: Buffer;
}

/** Every file under the data directory, and the server's output as 'server log'. */
export async function storedByServer(server: RunningServer): Promise<Stored[]> {
  const stored: Stored[] = [];
  const walk = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile()) stored.push({ path, bytes: await readFile(path) });
    }
  };
  await walk(server.dataDir);
  stored.push({ path: 'server log', bytes: Buffer.from(server.output()) });
  return stored;
}

/** A text as UTF-8. */
export const textNeedle = (what: string, text: string): Needle => ({ what, bytes: Buffer.from(text) });

/** Three 48-byte windows of a content (start, middle, end), enough to find it stored in clear. */
export function contentNeedles(what: string, bytes: Uint8Array): Needle[] {
  if (bytes.length < 64) return [{ what, bytes: Buffer.from(bytes) }];
  return [0, Math.floor(bytes.length / 2), bytes.length - 48].map((at) => ({
    what: `${what} at ${at}`,
    bytes: Buffer.from(bytes.subarray(at, at + 48)),
  }));
}

/** A key as raw bytes and in both base64 forms (a link fragment is the base64url one). */
export function keyNeedles(what: string, key: Uint8Array): Needle[] {
  return [
    { what: `${what} (raw)`, bytes: Buffer.from(key) },
    { what: `${what} (base64)`, bytes: Buffer.from(toBase64(key)) },
    { what: `${what} (base64url)`, bytes: Buffer.from(toBase64Url(key)) },
  ];
}

/** "needle in path" for every needle found anywhere. */
export function leaks(stored: Stored[], needles: Needle[]): string[] {
  const found: string[] = [];
  for (const needle of needles)
    for (const s of stored) if (s.bytes.includes(needle.bytes)) found.push(`${needle.what} in ${s.path}`);
  return found;
}
