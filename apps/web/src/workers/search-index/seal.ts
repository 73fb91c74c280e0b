/**
 * The sealed form of the search index at rest (docs/protocol.md "Tree version and search index"):
 * entries in chunks of CHUNK_ENTRIES, each chunk AES-GCM under the index key with its account,
 * build version and place as AAD, so a flipped byte, a chunk moved between places or builds, a
 * missing chunk or another account's key all fail to open. Beside the chunks, a names record: each
 * entry's id, folder, kind and name in columns, sealed the same way, which a first search reads
 * before the chunks (names.ts). Pure: no IndexedDB here.
 */
import { toHex } from '@sealbox/crypto';

/**
 * One name of the index: [id, parentId, name, isDirectory, mimeType, size, cipherSize, createdAt,
 * modifiedAt, uploaderId], and for what is shared with the user [ownerId, editPermission, untrusted].
 */
export type IndexEntry = [
  id: string,
  parentId: string | null,
  name: string,
  isDirectory: boolean,
  mimeType: string | null,
  size: number,
  cipherSize: number,
  createdAt: number,
  modifiedAt: number,
  uploaderId: string | null,
  ownerId?: string,
  editPermission?: boolean,
  untrusted?: boolean,
];

/** The own tree's names, and those of what is shared with the user (/shared), sealed apart. */
export type IndexSection = 'own' | 'shared';

export const CHUNK_ENTRIES = 5000;
const AAD_PREFIX = 'sealbox:v1:search-index';

/** What the index database holds in the clear: nothing the server does not know. */
export interface IndexMeta {
  treeVersion: number;
  chunks: number;
  names: number;
}

export interface SealedChunk {
  nonce: Uint8Array<ArrayBuffer>;
  sealed: ArrayBuffer;
}

export class IndexOpenError extends Error {
  override name = 'IndexOpenError';
}

const aad = (userId: string, section: IndexSection, meta: IndexMeta, n: number) =>
  new TextEncoder().encode(`${AAD_PREFIX}:${userId}:${section}:${meta.treeVersion}:${n}/${meta.chunks}`);

export async function sealIndex(
  key: CryptoKey,
  userId: string,
  section: IndexSection,
  treeVersion: number,
  entries: readonly IndexEntry[],
): Promise<{ meta: IndexMeta; chunks: SealedChunk[] }> {
  const meta: IndexMeta = { treeVersion, chunks: Math.max(1, Math.ceil(entries.length / CHUNK_ENTRIES)), names: entries.length };
  const chunks: SealedChunk[] = [];
  for (let n = 0; n < meta.chunks; n++) {
    const plain = new TextEncoder().encode(JSON.stringify(entries.slice(n * CHUNK_ENTRIES, (n + 1) * CHUNK_ENTRIES)));
    const nonce = crypto.getRandomValues(new Uint8Array(12));
    const sealed = await crypto.subtle.encrypt(
      { name: 'AES-GCM', iv: nonce, additionalData: aad(userId, section, meta, n) },
      key,
      plain,
    );
    chunks.push({ nonce, sealed });
  }
  return { meta, chunks };
}

/** The entries, or IndexOpenError when anything about the sealed index is not as it was sealed. */
export async function openIndex(
  key: CryptoKey,
  userId: string,
  section: IndexSection,
  meta: IndexMeta,
  chunks: readonly SealedChunk[],
): Promise<IndexEntry[]> {
  if (chunks.length !== meta.chunks) throw new IndexOpenError('The index lacks chunks');
  const out: IndexEntry[] = [];
  for (let n = 0; n < chunks.length; n++) {
    const chunk = chunks[n]!;
    let plain: ArrayBuffer;
    try {
      plain = await crypto.subtle.decrypt(
        { name: 'AES-GCM', iv: chunk.nonce, additionalData: aad(userId, section, meta, n) },
        key,
        chunk.sealed,
      );
    } catch {
      throw new IndexOpenError(`Chunk ${n} of the index does not open`);
    }
    const parsed: unknown = JSON.parse(new TextDecoder().decode(plain));
    if (!Array.isArray(parsed)) throw new IndexOpenError(`Chunk ${n} is not a list`);
    for (const entry of parsed) out.push(entry as IndexEntry);
  }
  if (out.length !== meta.names) throw new IndexOpenError('The index holds another number of names than it says');
  return out;
}

/**
 * The names record in the clear: what a search needs to find and show its matches, in the entries'
 * order, read without parsing JSON (about a fifth of the chunks' bytes at 100,000 names).
 */
export interface NamesColumns {
  /** Each entry's folder as its place in these columns; -1 at the top level (or not held). */
  parents: Int32Array;
  /** 1 for a folder. */
  directories: Uint8Array;
  /** 16 bytes an entry: its id, a UUID. */
  ids: Uint8Array;
  /** The names, each but the last followed by a newline (one inside a name is U+FFFD). */
  text: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A lower-case hex digit's value by its char code (the ids are checked against UUID first). */
const NIBBLE = new Uint8Array(128);
for (let n = 0; n < 16; n++) NIBBLE[n.toString(16).charCodeAt(0)] = n;

/** The id's UUID as text again (lower-case, as the server gives ids). */
export function idAt(ids: Uint8Array, n: number): string {
  const hex = toHex(ids.subarray(n * 16, n * 16 + 16));
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The entries as the names record's bytes; undefined when an id is not a UUID (no record then). */
export function encodeNames(entries: readonly IndexEntry[]): Uint8Array<ArrayBuffer> | undefined {
  const count = entries.length;
  const place = new Map<string, number>();
  for (const [n, entry] of entries.entries()) {
    if (!UUID.test(entry[0])) return undefined;
    place.set(entry[0], n);
  }
  const text = new TextEncoder().encode(entries.map((entry) => entry[2].replaceAll('\n', '\uFFFD')).join('\n'));
  const out = new Uint8Array(4 + count * 21 + text.byteLength);
  const view = new DataView(out.buffer);
  view.setUint32(0, count, true);
  const parents = new Int32Array(out.buffer, 4, count);
  const directories = out.subarray(4 + count * 4, 4 + count * 5);
  const ids = out.subarray(4 + count * 5, 4 + count * 21);
  for (const [n, entry] of entries.entries()) {
    parents[n] = entry[1] === null ? -1 : (place.get(entry[1]) ?? -1);
    directories[n] = entry[3] ? 1 : 0;
    const id = entry[0];
    let at = n * 16;
    for (let i = 0; i < 36; i += 2) {
      if (id.charCodeAt(i) === 45) i++;
      ids[at++] = (NIBBLE[id.charCodeAt(i)]! << 4) | NIBBLE[id.charCodeAt(i + 1)]!;
    }
  }
  out.set(text, 4 + count * 21);
  return out;
}

/** The names record's bytes as columns; IndexOpenError when they do not hold `names` entries. */
export function decodeNames(bytes: ArrayBuffer, names: number): NamesColumns {
  const fixed = 4 + names * 21;
  if (bytes.byteLength < fixed || new DataView(bytes).getUint32(0, true) !== names)
    throw new IndexOpenError('The names record holds another number of names');
  const parents = new Int32Array(bytes, 4, names);
  for (const parent of parents) if (parent < -1 || parent >= names) throw new IndexOpenError('A name has no such folder');
  return {
    parents,
    directories: new Uint8Array(bytes, 4 + names * 4, names),
    ids: new Uint8Array(bytes, 4 + names * 5, names * 16),
    // A first name may start with U+FEFF: it is a character of the name, not a byte order mark.
    text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(new Uint8Array(bytes, fixed)),
  };
}

const namesAad = (userId: string, section: IndexSection, meta: IndexMeta) =>
  new TextEncoder().encode(`${AAD_PREFIX}:${userId}:${section}:${meta.treeVersion}:names/${meta.chunks}/${meta.names}`);

/** The names record of a build (`meta` its chunks' meta), or undefined when it cannot have one. */
export async function sealNames(
  key: CryptoKey,
  userId: string,
  section: IndexSection,
  meta: IndexMeta,
  entries: readonly IndexEntry[],
): Promise<SealedChunk | undefined> {
  const plain = encodeNames(entries);
  if (!plain) return undefined;
  const nonce = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv: nonce, additionalData: namesAad(userId, section, meta) },
    key,
    plain,
  );
  return { nonce, sealed };
}

/** The names record's columns, or IndexOpenError when it is not the one sealed with this build. */
export async function openNames(
  key: CryptoKey,
  userId: string,
  section: IndexSection,
  meta: IndexMeta,
  record: SealedChunk,
): Promise<NamesColumns> {
  let plain: ArrayBuffer;
  try {
    plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: record.nonce, additionalData: namesAad(userId, section, meta) },
      key,
      record.sealed,
    );
  } catch {
    throw new IndexOpenError('The names record does not open');
  }
  return decodeNames(plain, meta.names);
}
