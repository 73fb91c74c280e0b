/**
 * A hostile server under the CLI's listings (docs/cli.md "What the CLI trusts"): an item listed
 * under a folder that did not wrap its key, a key wrapped under another key, or a name sealed for
 * another id never opens, is shown as undecryptable, and no path resolves to it. Paths: '.', '..'
 * and repeated slashes.
 */
import { describe, expect, test } from 'bun:test';
import { encryptName, newItemId, newItemKey, wrapItemKey } from '@sealbox/crypto';
import type { Connection } from './client.ts';
import { RemoteTree, pathSegments } from './remote-tree.ts';

type Row = Record<string, unknown>;

async function sealed(
  wrapping: CryptoKey | Uint8Array,
  parentId: string | null,
  name: string,
  options: { nameId?: string } = {},
) {
  const id = newItemId();
  const key = newItemKey();
  const [sealedName, wrapped] = await Promise.all([encryptName(key, options.nameId ?? id, name), wrapItemKey(wrapping, id, key)]);
  const row: Row = { id, parentId, isDirectory: true, ...sealedName, ...wrapped, size: 0, createdAt: 1, modifiedAt: 1 };
  return { row, key };
}

/** A connection whose listings answer `folders[id ?? 'top']`. */
function fakeConnection(folders: Record<string, Row[]>): Connection {
  const get = async ({ query }: { query: { id?: string } }) => ({
    data: { root: null, files: folders[query.id ?? 'top'] ?? [], users: [] },
    error: null,
    response: new Response('{}'),
    status: 200,
  });
  return { server: 'http://server.test', cookie: '', api: { api: { file: { get } } } } as unknown as Connection;
}

describe('the CLI under a hostile server', () => {
  test('only items the listed folder wrapped open; the rest show undecryptable and resolve nowhere', async () => {
    const root = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
    const elsewhere = newItemKey();
    const good = await sealed(root, null, 'Good');
    // Listed at the top, but claims another parent: a server moving an item where it is not.
    const claimed = await sealed(root, newItemId(), 'Claimed');
    // Its key wrapped under some other key than R.
    const foreign = await sealed(elsewhere, null, 'Foreign');
    // Its name sealed for another id (spliced from another item).
    const spliced = await sealed(root, null, 'Spliced', { nameId: newItemId() });
    // Inside Good: a child wrapped under R instead of Good's key.
    const misfiled = await sealed(root, good.row.id as string, 'Misfiled');
    const inside = await sealed(good.key, good.row.id as string, 'Inside');
    const tree = new RemoteTree(
      fakeConnection({
        top: [good.row, claimed.row, foreign.row, spliced.row],
        [good.row.id as string]: [misfiled.row, inside.row],
      }),
      { id: null, key: root },
    );

    const top = await tree.children(tree.top);
    expect(top.map((item) => item.name)).toEqual(['Good', null, null, null]);
    expect(top.slice(1).every((item) => item.key === null)).toBe(true);
    const opened = await tree.resolve('/Good');
    const children = await tree.children(opened as Parameters<RemoteTree['children']>[0]);
    expect(children.map((item) => item.name)).toEqual([null, 'Inside']);
    await expect(tree.resolve('Claimed')).rejects.toMatchObject({ exitCode: 4 });
    await expect(tree.resolve('Good/Misfiled')).rejects.toMatchObject({ exitCode: 4 });
    expect(((await tree.resolve('./Good//Inside/../Inside')) as { name: string }).name).toBe('Inside');
  });

  test('paths: empty and dot segments skipped, .. goes up, never above the top', () => {
    expect(pathSegments('/')).toEqual([]);
    expect(pathSegments('a//b/./c/')).toEqual(['a', 'b', 'c']);
    expect(pathSegments('a/../../b')).toEqual(['b']);
  });
});
