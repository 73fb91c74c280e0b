/**
 * The sealed form of the search index at rest (docs/protocol.md "Tree version and search index"):
 * entries in chunks of CHUNK_ENTRIES, each chunk AES-GCM under the index key with its account,
 * build version and place as AAD, so a flipped byte, a chunk moved between places or builds, a
 * missing chunk or another account's key all fail to open. Pure: no IndexedDB here.
 */

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
