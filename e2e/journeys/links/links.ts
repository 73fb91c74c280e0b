/**
 * What the link journeys (share-link.test.ts) make and check through the API: random content, a
 * share link, byte-for-byte equality, and the owner's own view of a linked subtree.
 */
import { decryptName, unwrapItemKey } from '@sealbox/crypto';
import type { ApiFolder, ApiSession } from '../../support/files.ts';
import { apiCreateLink } from '../../support/sharing.ts';

export function randomBytes(length: number): Uint8Array {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i += 65_536) crypto.getRandomValues(out.subarray(i, Math.min(length, i + 65_536)));
  return out;
}

export function createLink(session: ApiSession, itemId: string, password: string | null, edit = false): Promise<string> {
  return apiCreateLink(session, itemId, { password, edit });
}

export const same = (a: Uint8Array | undefined, b: Uint8Array) =>
  a !== undefined && Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;

/** The owner's view of `folder`'s subtree: every name opened with the keys (each K under its parent's). */
export async function ownerNames(owner: ApiSession, folder: ApiFolder): Promise<Map<string, string>> {
  const response = await fetch(`${owner.baseUrl}/api/file?id=${folder.id}&depth=5&limit=1000&offset=0`, {
    headers: { cookie: owner.cookie },
  });
  const listing = (await response.json()) as {
    files: Array<{
      id: string;
      parentId: string;
      encryptedKey: string;
      keyNonce: string;
      encryptedFileName: string;
      nameNonce: string;
    }>;
  };
  const keys = new Map<string, Uint8Array>([[folder.id, folder.key]]);
  const paths = new Map<string, string>([[folder.id, '']]);
  const names = new Map<string, string>();
  for (const item of listing.files) {
    const parentKey = keys.get(item.parentId);
    if (!parentKey) continue;
    const key = await unwrapItemKey(parentKey, item.id, item.encryptedKey, item.keyNonce);
    keys.set(item.id, key);
    const name = await decryptName(key, item.id, item.encryptedFileName, item.nameNonce);
    const path = `${paths.get(item.parentId)}/${name}`;
    paths.set(item.id, path);
    names.set(path, item.id);
  }
  return names;
}
