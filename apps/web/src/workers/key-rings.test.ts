// @vitest-environment node
/**
 * The crypto worker's key rings (items.ts, sharing.ts; docs/protocol.md "Key rings") with the real
 * crypto package; only the network and IndexedDB are stubbed. Each rule has a test that fails
 * without it: a key from outside the tree (a grant, a link) never replaces one the user's own
 * tree opened, is used only in its own scope, and a grant is honoured only from the item's owner,
 * who is not the signed-in user.
 */
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type AccountKeys,
  createAccount,
  encryptName,
  newItemId,
  newItemKey,
  signGrant,
  unwrapItemKey,
  wrapItemKey,
  wrapKeyForUser,
} from '@sealbox/crypto';
import { OWN_SCOPE, SHARED_SCOPE, linkScope } from '../model/browse-scope.ts';
import type { ServerItem } from '../model/items.ts';

interface Person {
  id: string;
  keys: AccountKeys;
}

let me: Person;
let mallory: Person;
let eve: Person;
let fetchedItems: Record<string, unknown> = {};

vi.mock('./key-store.ts', () => ({
  loadAnyAccount: async () => ({ userId: me.id, keys: me.keys, storedAt: 0 }),
}));

/** The few calls sharing.ts makes: pins (none yet, written once), the sharer's public keys, a listing. */
vi.mock('./api.ts', () => {
  const answer = (data: unknown, status = 200) => Promise.resolve({ data, error: null, status, response: new Response() });
  const people = () => [me, mallory];
  return {
    api: {
      api: {
        profile: {
          pins: {
            get: () => answer({ sealed: null, nonce: null, version: 0 }),
            put: () => answer({ version: 1 }),
          },
        },
        user: ({ id }: { id: string }) => ({
          get: () => {
            const person = people().find((p) => p.id === id);
            return answer(
              person ? { id, publicKey: person.keys.publicKey, signingPublicKey: person.keys.signingPublicKey } : null,
              404,
            );
          },
        }),
        file: { get: ({ query }: { query: { id: string } }) => answer(fetchedItems[query.id] ?? null, 404) },
      },
    },
    bytes: {},
  };
});

const items = await import('./items.ts');
const rings = await import('./key-rings.ts');
const { sharingMethods } = await import('./sharing.ts');

async function person(): Promise<Person> {
  return { id: newItemId(), keys: (await createAccount('correct horse battery')).keys };
}

/** A folder as the server lists it, its key wrapped under `wrapping`, its name sealed under its key. */
async function folder(
  owner: Person,
  parentId: string | null,
  wrapping: CryptoKey | Uint8Array,
  name: string,
  key = newItemKey(),
  id = newItemId(),
): Promise<{ item: ServerItem; key: Uint8Array }> {
  const [sealed, wrapped] = await Promise.all([encryptName(key, id, name), wrapItemKey(wrapping, id, key)]);
  const item = {
    id,
    parentId,
    isDirectory: true,
    ...sealed,
    ...wrapped,
    encryptedMimeType: null,
    mimeTypeNonce: null,
    fileNonce: null,
    size: 0,
    createdAt: 1,
    modifiedAt: 1,
    ownerId: owner.id,
    uploaderId: owner.id,
    editPermission: true,
  } as unknown as ServerItem;
  return { item, key };
}

/** An entry of GET /api/shared naming `item` (re-sealed under `forged`), by a grant `sharer` really signed. */
async function grantEntry(item: ServerItem, forged: Uint8Array, sharer: Person, ownerId: string, name = 'Planted') {
  const encryptedKey = await wrapKeyForUser(me.keys.publicKey, forged);
  const signature = await signGrant(sharer.keys.signingPrivateKey, {
    sharerId: sharer.id,
    recipientId: me.id,
    itemId: item.id,
    encryptedKey,
    edit: true,
  });
  return {
    ...item,
    ...(await encryptName(forged, item.id, name)),
    ownerId,
    grant: { itemId: item.id, userId: me.id, editPermission: true, encryptedKey, signature, sharerId: sharer.id },
  };
}

const sharedBody = (files: unknown[]) => new TextEncoder().encode(JSON.stringify({ files, users: [] })).buffer as ArrayBuffer;

/** A GET /api/shared answer naming `item` (re-sealed under `forged`), by a grant `sharer` really signed. */
async function sharedAnswer(item: ServerItem, forged: Uint8Array, sharer: Person, ownerId: string, name = 'Planted') {
  return sharedBody([await grantEntry(item, forged, sharer, ownerId, name)]);
}

/** Whether a key made by `newFolder` under `parent` in `scope` unwraps under `key`. */
async function childOpensUnder(scope: Parameters<typeof items.itemMethods.newFolder>[0], parent: string, key: Uint8Array) {
  const made = await items.itemMethods.newFolder(scope, parent, 'child');
  return unwrapItemKey(key, made.id, made.encryptedKey, made.keyNonce).then(
    () => true,
    () => false,
  );
}

beforeAll(async () => {
  [me, mallory, eve] = await Promise.all([person(), person(), person()]);
}, 60_000);

beforeEach(() => {
  rings.forgetItems();
  fetchedItems = {};
});

describe('key rings', () => {
  it('a grant for an item the own tree holds is refused: the item keeps its key, nothing wraps under the forged one', async () => {
    const own = await folder(me, null, me.keys.rootKey, 'Holiday');
    const [opened] = await items.openItems(OWN_SCOPE, [own.item]);
    expect(opened?.name).toBe('Holiday');
    const forged = newItemKey();

    const { files } = await sharingMethods.openShared(await sharedAnswer(own.item, forged, mallory, mallory.id));
    expect(files[0]).toMatchObject({ decrypted: false, untrusted: true });
    expect(rings.itemKey(OWN_SCOPE, own.item.id)).toEqual(own.key);
    expect(() => rings.itemKey(SHARED_SCOPE, own.item.id)).toThrow();
    expect(await childOpensUnder(OWN_SCOPE, own.item.id, own.key)).toBe(true);
    expect(await childOpensUnder(OWN_SCOPE, own.item.id, forged)).toBe(false);
  });

  it('a grant that arrived first stays in the shared ring; once the own tree opens the item, that grant is dropped', async () => {
    const own = await folder(me, null, me.keys.rootKey, 'Holiday');
    const forged = newItemKey();
    const first = await sharingMethods.openShared(await sharedAnswer(own.item, forged, mallory, mallory.id));
    // Nothing contradicts it yet: it opens, in the shared ring only.
    expect(first.files[0]).toMatchObject({ name: 'Planted', decrypted: true });
    expect(() => rings.itemKey(OWN_SCOPE, own.item.id)).toThrow();

    // The own tree lists it: its real key, never the forged one.
    const [opened] = await items.openItems(OWN_SCOPE, [own.item]);
    expect(opened?.name).toBe('Holiday');
    expect(await childOpensUnder(OWN_SCOPE, own.item.id, own.key)).toBe(true);
    // The forged root is gone from the shared ring, and a listing of it there now refuses it.
    expect(() => rings.itemKey(SHARED_SCOPE, own.item.id)).toThrow();
    const again = await sharingMethods.openShared(await sharedAnswer(own.item, forged, mallory, mallory.id));
    expect(again.files[0]).toMatchObject({ decrypted: false, untrusted: true });
  });

  it('a grant naming the signed-in user as owner is refused, even before the own tree has seen the item', async () => {
    const own = await folder(me, null, me.keys.rootKey, 'Holiday');
    const { files } = await sharingMethods.openShared(await sharedAnswer(own.item, newItemKey(), mallory, me.id));
    expect(files[0]).toMatchObject({ decrypted: false, untrusted: true });
    expect(() => rings.itemKey(SHARED_SCOPE, own.item.id)).toThrow();
  });

  it('a grant signed by someone other than the item’s owner is not honoured: shown, never a parent', async () => {
    const theirs = await folder(mallory, null, mallory.keys.rootKey, 'Theirs');
    const answer = await sharedAnswer(theirs.item, theirs.key, mallory, eve.id, 'Theirs');
    const { files } = await sharingMethods.openShared(answer);
    expect(files[0]).toMatchObject({ name: 'Theirs', decrypted: true, untrusted: true });
    await expect(items.itemMethods.newFolder(SHARED_SCOPE, theirs.item.id, 'x')).rejects.toMatchObject({ code: 'UNVERIFIED' });
  });

  it('a grant from the owner opens in the shared ring, trusted, and wraps there only', async () => {
    const theirs = await folder(mallory, null, mallory.keys.rootKey, 'Theirs');
    const { files } = await sharingMethods.openShared(await sharedAnswer(theirs.item, theirs.key, mallory, mallory.id, 'Theirs'));
    expect(files[0]).toMatchObject({ name: 'Theirs', decrypted: true });
    expect(files[0]?.untrusted).toBeUndefined();
    expect(await childOpensUnder(SHARED_SCOPE, theirs.item.id, theirs.key)).toBe(true);
    await expect(items.itemMethods.newFolder(OWN_SCOPE, theirs.item.id, 'x')).rejects.toMatchObject({ code: 'NO_KEY' });
  });

  it('a link key for an item the own tree holds under another key is refused; the same key is accepted', async () => {
    const own = await folder(me, null, me.keys.rootKey, 'Holiday');
    await items.openItems(OWN_SCOPE, [own.item]);
    expect(rings.openRoot(linkScope('L1'), own.item.id, newItemKey(), 'link')).toBe(false);
    expect(() => rings.itemKey(linkScope('L1'), own.item.id)).toThrow();
    // The owner opening their own link: the fragment is the item's real K.
    expect(rings.openRoot(linkScope('L2'), own.item.id, own.key, 'link')).toBe(true);
    expect(rings.itemKey(OWN_SCOPE, own.item.id)).toEqual(own.key);
  });

  it('within a ring a key is never replaced: a child re-wrapped to another key does not open', async () => {
    const own = await folder(me, null, me.keys.rootKey, 'Holiday');
    const child = await folder(me, own.item.id, own.key, 'Child');
    await items.openItems(OWN_SCOPE, [own.item, child.item]);
    // The server serves the child with a different K, wrapped properly under its parent.
    const other = await folder(me, own.item.id, own.key, 'Imposter', newItemKey(), child.item.id);
    const [, view] = await items.openItems(OWN_SCOPE, [own.item, other.item]);
    expect(view).toMatchObject({ decrypted: false });
    expect(rings.itemKey(OWN_SCOPE, child.item.id)).toEqual(child.key);
  });

  it('a name opened under one key is not shown in a ring that holds another key for the item', async () => {
    const own = await folder(me, null, me.keys.rootKey, 'Real name');
    const [inOwn] = await items.openItems(OWN_SCOPE, [own.item]);
    expect(inOwn?.name).toBe('Real name');
    // Mallory shares a folder P; the server lists the victim's item under it with a key Mallory
    // made (wrapped under P's K) and the very same name ciphertext and nonce.
    const p = await folder(mallory, null, mallory.keys.rootKey, 'P');
    await sharingMethods.openShared(await sharedAnswer(p.item, p.key, mallory, mallory.id, 'P'));
    const forged = await folder(mallory, p.item.id, p.key, 'unused', newItemKey(), own.item.id);
    const listed = { ...forged.item, encryptedFileName: own.item.encryptedFileName, nameNonce: own.item.nameNonce };
    const [, inShared] = await items.openItems(SHARED_SCOPE, [p.item, listed]);
    expect(inShared).toMatchObject({ decrypted: false, name: null });
  });

  it('texts opened once (an index build, a zip) stay out of the memo; a shown listing is remembered', async () => {
    const top = await folder(me, null, me.keys.rootKey, 'Top');
    const children = await Promise.all(Array.from({ length: 5 }, (_, i) => folder(me, top.item.id, top.key, `child ${i}`)));
    const listed = [top.item, ...children.map((c) => c.item)];
    const once = await items.openItems(OWN_SCOPE, listed, { once: true });
    expect(once.map((view) => view.name)).toEqual(['Top', 'child 0', 'child 1', 'child 2', 'child 3', 'child 4']);
    expect(rings.memoSize()).toBe(0);
    await items.openItems(OWN_SCOPE, listed);
    expect(rings.memoSize()).toBe(6);
  });

  it('the memo keeps at most MEMO_TEXTS texts, the oldest going first', async () => {
    const top = await folder(me, null, me.keys.rootKey, 'Many');
    const [entry] = await items.openItems(OWN_SCOPE, [top.item]);
    expect(entry?.decrypted).toBe(true);
    const held = rings.ringOf(OWN_SCOPE).get(top.item.id)!;
    // One key, many ids: each text is its own memo entry (the id is in the AAD and the memo key).
    const ids = Array.from({ length: rings.MEMO_TEXTS + 10 }, () => newItemId());
    const sealed = await Promise.all(ids.map((id) => encryptName(top.key, id, 'n')));
    const first = sealed[0]!;
    for (let i = 0; i < ids.length; i++)
      await rings.openText('name', held, ids[i]!, sealed[i]!.encryptedFileName, sealed[i]!.nameNonce);
    expect(rings.memoSize()).toBe(rings.MEMO_TEXTS);
    // A text found again moves to the end; the next new one pushes out the oldest, not it.
    await rings.openText('name', held, ids[10]!, sealed[10]!.encryptedFileName, sealed[10]!.nameNonce);
    const extra = newItemId();
    const sealedExtra = await encryptName(top.key, extra, 'x');
    expect(await rings.openText('name', held, extra, sealedExtra.encryptedFileName, sealedExtra.nameNonce)).toBe('x');
    expect(rings.memoSize()).toBe(rings.MEMO_TEXTS);
    expect(rings.memoHas('name', held, ids[10]!, sealed[10]!.encryptedFileName, sealed[10]!.nameNonce)).toBe(true);
    expect(rings.memoHas('name', held, ids[11]!, sealed[11]!.encryptedFileName, sealed[11]!.nameNonce)).toBe(false);
    expect(rings.memoHas('name', held, ids[0]!, first.encryptedFileName, first.nameNonce)).toBe(false);
  }, 60_000);

  it('outside the own tree a top-level item never opens with the account root key', async () => {
    const own = await folder(me, null, me.keys.rootKey, 'Holiday');
    const [inLink] = await items.openItems(linkScope('L'), [own.item]);
    const [inShared] = await items.openItems(SHARED_SCOPE, [own.item]);
    expect(inLink?.decrypted).toBe(false);
    expect(inShared?.decrypted).toBe(false);
    await expect(rings.wrappingKeyFor(SHARED_SCOPE, null)).rejects.toMatchObject({ code: 'NO_KEY' });
  });

  it('a call without a browse scope fails instead of acting as the signed-in user', async () => {
    await expect(items.itemMethods.newFolder(undefined as never, null, 'x')).rejects.toThrow('browse scope');
  });

  it('a grant or link fragment for the user’s own item is made only from the own tree, opened on demand', async () => {
    const own = await folder(me, null, me.keys.rootKey, 'Holiday');
    const forged = newItemKey();
    rings.openRoot(linkScope('L'), own.item.id, forged, 'link');
    fetchedItems[own.item.id] = { root: own.item, files: [], ancestors: [], users: [] };
    const fragment = await sharingMethods.linkFragment(own.item.id);
    expect(fragment).not.toBe(Buffer.from(forged).toString('base64url'));
    expect(fragment).toBe(Buffer.from(own.key).toString('base64url'));
  });

  it("a folder's first items, then the whole folder: the same views, and progress slice by slice", async () => {
    const top = await folder(me, null, me.keys.rootKey, 'Big');
    const children = await Promise.all(
      Array.from({ length: 1030 }, (_, i) => folder(me, top.item.id, top.key, `item ${String(i).padStart(4, '0')}`)),
    );
    const listing = (files: ServerItem[]) =>
      new TextEncoder().encode(JSON.stringify({ root: top.item, files, users: [] })).buffer;
    const first = await items.itemMethods.openListing(OWN_SCOPE, listing(children.slice(0, 101).map((c) => c.item)));
    expect(first.files.map((v) => v.name)).toEqual(children.slice(0, 101).map((_, i) => `item ${String(i).padStart(4, '0')}`));
    const reports: Array<{ opened: number; total: number }> = [];
    const channel = new MessageChannel();
    channel.port1.onmessage = (event) => reports.push(event.data);
    const whole = await items.itemMethods.openListing(OWN_SCOPE, listing(children.map((c) => c.item)), channel.port2);
    expect(whole.files.every((v) => v.decrypted)).toBe(true);
    expect(whole.files.slice(0, 101)).toEqual(first.files);
    expect(whole.files[1029]!.name).toBe('item 1029');
    await new Promise((resolve) => setTimeout(resolve, 10));
    channel.port1.close();
    // Its children only (the folder itself is not one of them), after each slice of 1024.
    expect(reports).toEqual([
      { opened: 0, total: 1030 },
      { opened: 1024, total: 1030 },
      { opened: 1030, total: 1030 },
    ]);
  });

  it('the first shares, then all of them: a tampered grant is flagged wherever it is, and no grant is unwrapped twice', async () => {
    const made = await Promise.all(
      Array.from({ length: 70 }, (_, i) => folder(mallory, null, mallory.keys.rootKey, `share ${String(i).padStart(2, '0')}`)),
    );
    const entries = await Promise.all(made.map(({ item, key }, i) => grantEntry(item, key, mallory, mallory.id, `share ${i}`)));
    // The server flips the edit flag of one grant among the first shares and of one after them.
    for (const i of [5, 60]) entries[i]!.grant.editPermission = false;
    const decrypt = vi.spyOn(crypto.subtle, 'decrypt');
    const rsaCalls = () => decrypt.mock.calls.filter(([algorithm]) => (algorithm as { name: string }).name === 'RSA-OAEP').length;

    const first = await sharingMethods.openShared(sharedBody(entries.slice(0, 21)));
    expect(first.files.filter((view) => view.untrusted).map((view) => view.id)).toEqual([made[5]!.item.id]);
    expect(first.files.every((view) => view.decrypted)).toBe(true);
    expect(rsaCalls()).toBe(21);

    const reports: Array<{ opened: number; total: number }> = [];
    const channel = new MessageChannel();
    channel.port1.onmessage = (event) => reports.push(event.data);
    const whole = await sharingMethods.openShared(sharedBody(entries), channel.port2);
    expect(whole.files.filter((view) => view.untrusted).map((view) => view.id)).toEqual([made[5]!.item.id, made[60]!.item.id]);
    expect(whole.files.slice(0, 21)).toEqual(first.files);
    // The first shares' grants were held from the first answer: only the other 49 were unwrapped.
    expect(rsaCalls()).toBe(70);
    decrypt.mockRestore();
    await new Promise((resolve) => setTimeout(resolve, 10));
    channel.port1.close();
    expect(reports).toEqual([
      { opened: 50, total: 70 },
      { opened: 70, total: 70 },
    ]);
    await expect(items.itemMethods.newFolder(SHARED_SCOPE, made[60]!.item.id, 'x')).rejects.toMatchObject({ code: 'UNVERIFIED' });
  });
});
