/**
 * Unfinished uploads, so that a `put` killed half-way continues on the next run (docs/cli.md
 * "Resuming"). Kept in `uploads.json` beside the session (0600). It holds no key: the item's K is
 * kept wrapped under its folder's key, as the server keeps it, and opened again from the tree;
 * the file nonce is no secret (the server stores it in clear).
 */
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { configDir } from '../config.ts';

export interface JournalEntry {
  uploadId: string;
  itemId: string;
  /** The folder it goes into (null: the top level). */
  parentId: string | null;
  /** A new version of this file rather than a new item. */
  versionOf: string | null;
  fileNonce: string;
  /** K wrapped under the folder's key (new items only). */
  encryptedKey: string | null;
  keyNonce: string | null;
  /** The local file as it was when the upload began: a file changed since starts over. */
  size: number;
  mtimeMs: number;
  /**
   * The fingerprints (@sealbox/crypto part-fingerprints.ts) of the parts begun and not yet
   * confirmed (partLog): such a part is encrypted again on a rerun, which must give the same
   * ciphertext, or the server would see two under one (K, nonce_i).
   */
  started?: StartedParts;
}

type Journal = Record<string, JournalEntry>;

const path = () => join(configDir(), 'uploads.json');

async function read(): Promise<Journal> {
  try {
    const value = JSON.parse(await readFile(path(), 'utf8')) as unknown;
    return typeof value === 'object' && value !== null ? (value as Journal) : {};
  } catch {
    return {};
  }
}

async function write(journal: Journal): Promise<void> {
  await writeFile(path(), `${JSON.stringify(journal, null, 2)}\n`, { mode: 0o600 });
  await chmod(path(), 0o600);
}

/** Which upload a local file going to a remote folder under a name is. */
export function journalKey(parts: { server: string; userId: string; parentId: string | null; name: string; localPath: string }) {
  return JSON.stringify([parts.server, parts.userId, parts.parentId, parts.name, parts.localPath]);
}

export async function findUpload(key: string): Promise<JournalEntry | undefined> {
  return (await read())[key];
}

export async function rememberUpload(key: string, entry: JournalEntry): Promise<void> {
  const journal = await read();
  journal[key] = entry;
  await write(journal);
}

export async function forgetUpload(key: string): Promise<void> {
  const journal = await read();
  if (!(key in journal)) return;
  delete journal[key];
  await write(journal);
}

/** Parts begun and not yet confirmed by the server, by number, with their fingerprints. */
export type StartedParts = Record<string, string>;

/**
 * The journal's record of the parts of the upload under `key` that were begun and not yet
 * confirmed: written before each part is sent, so a rerun checks those parts against the file.
 * A confirmed part leaves it (written with the next one), so it holds about the parts in flight
 * and each write stays small however many parts the file has. It starts from what an earlier
 * run left unconfirmed, which the server may still have seen.
 */
export function partLog(key: string, unconfirmed: StartedParts = {}) {
  const open: StartedParts = { ...unconfirmed };
  return {
    async begin(n: number, fingerprint: string): Promise<void> {
      open[n] = fingerprint;
      const journal = await read();
      const entry = journal[key];
      if (!entry) return;
      entry.started = { ...open };
      await write(journal);
    },
    confirmed(n: number): void {
      delete open[n];
    },
  };
}

export type PartLog = ReturnType<typeof partLog>;
