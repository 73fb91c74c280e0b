import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { sweep } from '../src/domain/files/index.ts';
import { RESYNC_EVENT_KIND } from '../src/ports/event-bus.ts';
import { MAX_SOCKETS_PER_LINK_ADDRESS } from '../src/http/live/protocol.ts';
import { Browser } from './accounts/harness.ts';
import { folderMeta, openFilesHarness, postFolder, type FilesHarness, type Made } from './files/harness.ts';
import { create, keyedUser, makeLink, shareWith, withLink, type KeyedUser } from './sharing/harness.ts';
import { LiveClient, serveWithLiveHub, upgradeRequest } from './support/live-client.ts';
import { sqliteDiskEnv } from './support/sqlite-env.ts';

/** Sharing on /api/ws (docs/protocol.md "Live updates"): recipients' tabs and link visitors' sockets. */
describe('live updates of sharing', () => {
  let h: FilesHarness;
  let app: FilesHarness['app'];
  let base: string;
  let alice: KeyedUser;
  let bob: KeyedUser;
  /** alice's F/{inner}, and G elsewhere. */
  let F: Made;
  let inner: Made;
  let G: Made;
  const sockets: LiveClient[] = [];

  const open = async (cookie: string | undefined, options: Parameters<typeof LiveClient.open>[2] = {}) => {
    const socket = await LiveClient.open(base, cookie, options);
    sockets.push(socket);
    return socket;
  };
  const upgrade = (path: string, headers: Record<string, string> = {}) => upgradeRequest(base, path, headers);
  const rename = (user: { browser: Browser }, item: Made) =>
    user.browser.put(`/api/file/${item.id}`, {
      type: 'rename',
      encryptedName: btoa('x'.repeat(30)),
      nameNonce: btoa('y'.repeat(12)),
    });

  beforeAll(async () => {
    h = await openFilesHarness((events) => sqliteDiskEnv(events, 'sealbox-live-sharing-'));
    ({ app, base } = serveWithLiveHub(h));
    [alice, bob] = [await keyedUser(h, app), await keyedUser(h, app)];
    F = await folderMeta(alice.rootKey, null, 'F');
    await create(alice, F);
    inner = await folderMeta(F.key, F.id, 'inner');
    await create(alice, inner);
    G = await folderMeta(alice.rootKey, null, 'G');
    await create(alice, G);
  });

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await app.stop(true);
    await h.cleanup();
  });

  test('the recipient hears of a share, of changes inside it, and of its end; then nothing more', async () => {
    const b = await open(bob.browser.cookie);
    await shareWith(alice, F, bob.id, false);
    expect((await b.event('share.created', F.id)).event).toEqual({ kind: 'share.created', itemId: F.id });
    await rename(alice, inner);
    expect((await b.event('item.renamed', inner.id)).event).toEqual({ kind: 'item.renamed', itemId: inner.id, parentId: F.id });
    // A change outside what is shared with bob never reaches him.
    await rename(alice, G);
    expect(
      (await alice.browser.call('DELETE', '/api/shared', { json: { type: 'user', fileId: F.id, userId: bob.id } })).status,
    ).toBe(204);
    await b.event('share.deleted', F.id);
    await rename(alice, inner);
    await Bun.sleep(100);
    expect(b.events().map((e) => [e.kind, e.itemId])).toEqual([
      ['share.created', F.id],
      ['item.renamed', inner.id],
      ['share.deleted', F.id],
    ]);
  });

  test('a link visitor subscribes by linkId without a session, hears item events of the linked subtree only', async () => {
    const linkId = await makeLink(alice, inner);
    expect((await upgrade(`/api/ws?linkId=${'A'.repeat(22)}`)).status).toBe(404);
    expect((await upgrade('/api/ws?linkId=abc')).status).toBe(404);
    expect((await upgrade(`/api/ws?linkId=${linkId}`, { origin: 'https://evil.example' })).status).toBe(403);
    const visitor = await open(undefined, { path: `/api/ws?linkId=${linkId}` });
    const owner = await open(alice.browser.cookie);
    const sub = await postFolder(alice, inner);
    expect((await visitor.event('item.created', sub.id)).event).toEqual({
      kind: 'item.created',
      itemId: sub.id,
      parentId: inner.id,
    });
    // Above the linked item (F itself), beside it (G), the owner's quota: none of it.
    await rename(alice, F);
    await rename(alice, G);
    await owner.event('item.renamed', G.id);
    await rename(alice, inner);
    await visitor.event('item.renamed', inner.id);
    expect(visitor.events().map((e) => [e.kind, e.itemId])).toEqual([
      ['item.created', sub.id],
      ['item.renamed', inner.id],
    ]);
    // Switching the permission reaches the visitor (refresh); deleting the link closes the socket.
    expect((await alice.browser.put('/api/share', { type: 'link', linkId, edit: true })).status).toBe(200);
    await visitor.event('link.changed', inner.id);
    expect((await alice.browser.call('DELETE', '/api/shared', { json: { type: 'link', linkId } })).status).toBe(204);
    expect(await visitor.closed).toEqual({ code: 4404, reason: 'Link not found' });
    expect(owner.socket.readyState).toBe(WebSocket.OPEN);
  });

  test('a password link: the upgrade needs the proof; a password change closes the socket (4403)', async () => {
    const linkId = await makeLink(alice, F, { password: 'pw' });
    expect((await upgrade(`/api/ws?linkId=${linkId}`)).status).toBe(404);
    const visitor = new Browser(app);
    expect((await visitor.post(`/api/shared/${linkId}`, { password: 'pw' })).status).toBe(200);
    const socket = await open(undefined, { path: `/api/ws?linkId=${linkId}`, cookies: visitor.linkCookies });
    const other = await open(undefined, { path: withLink('/api/ws', await makeLink(alice, F)) });
    expect((await alice.browser.put('/api/share', { type: 'link', linkId, password: 'new' })).status).toBe(200);
    expect(await socket.closed).toEqual({ code: 4403, reason: 'Link password needed' });
    // With the old proof the upgrade is refused from now on; the other link's socket stays.
    expect(
      (
        await upgrade(`/api/ws?linkId=${linkId}`, {
          cookie: `sealbox_link_${linkId}=${visitor.linkCookies.get(`sealbox_link_${linkId}`)}`,
        })
      ).status,
    ).toBe(404);
    await Bun.sleep(50);
    expect(other.socket.readyState).toBe(WebSocket.OPEN);
    // A socket lives no longer than the proof it came with (a day): then it must ask again.
    expect((await visitor.post(`/api/shared/${linkId}`, { password: 'new' })).status).toBe(200);
    const again = await open(undefined, { path: `/api/ws?linkId=${linkId}`, cookies: visitor.linkCookies });
    h.clock.advance(24 * 60 * 60 * 1000);
    try {
      (h.events as unknown as { publish(e: unknown): Promise<void> })
        .publish({ kind: RESYNC_EVENT_KIND, userIds: [] })
        .catch(() => {});
      expect(await again.closed).toEqual({ code: 4403, reason: 'Link password needed' });
    } finally {
      h.clock.advance(-24 * 60 * 60 * 1000);
    }
    expect(other.socket.readyState).toBe(WebSocket.OPEN);
  });

  test('a link socket closes when the link expires, and after a resync when the link is gone', async () => {
    const expiring = await makeLink(alice, F, { expires: 1 });
    const socket = await open(undefined, { path: `/api/ws?linkId=${expiring}` });
    h.clock.advance(1500);
    try {
      expect(await socket.closed).toEqual({ code: 4404, reason: 'Link not found' });
    } finally {
      h.clock.advance(-1500);
    }
    // A deletion whose event never arrived (a lost notification) is found on the next resync.
    const quiet = await makeLink(alice, F);
    const orphan = await open(undefined, { path: `/api/ws?linkId=${quiet}` });
    await h.db.kysely.deleteFrom('links').where('id', '=', quiet).execute();
    await Bun.sleep(50);
    expect(orphan.socket.readyState).toBe(WebSocket.OPEN);
    // Delivered as the bus delivers its own resync to local subscribers.
    (h.events as unknown as { publish(e: unknown): Promise<void> })
      .publish({ kind: RESYNC_EVENT_KIND, userIds: [] })
      .catch(() => {});
    expect(await orphan.closed).toEqual({ code: 4404, reason: 'Link not found' });
  });

  test("the sweep ends an expired link and closes its socket, before the hub's own timer would", async () => {
    // An hour: the hub's expiry timer is an hour of real time away; only the sweep's event can close it now.
    const expiring = await makeLink(alice, F, { expires: 3600 });
    const socket = await open(undefined, { path: `/api/ws?linkId=${expiring}` });
    const owner = await open(alice.browser.cookie);
    h.clock.advance(3600 * 1000);
    try {
      // This link, and any an earlier test left to expire within the hour.
      expect((await sweep(h.files, { graceMs: 0 })).expiredLinks).toBeGreaterThanOrEqual(1);
      expect(await socket.closed).toEqual({ code: 4404, reason: 'Link not found' });
      // Kept, for its owner to renew or delete; the owner's tabs are told.
      expect(await h.db.kysely.selectFrom('links').select('id').where('id', '=', expiring).executeTakeFirst()).toBeDefined();
      expect((await owner.event('link.expired', F.id)).event).toEqual({ kind: 'link.expired', itemId: F.id });
    } finally {
      h.clock.advance(-3600 * 1000);
    }
  });

  test(`at most ${MAX_SOCKETS_PER_LINK_ADDRESS} sockets per link from one address`, async () => {
    const linkId = await makeLink(alice, F);
    const opened: LiveClient[] = [];
    for (let i = 0; i < MAX_SOCKETS_PER_LINK_ADDRESS; i++)
      opened.push(await open(undefined, { path: `/api/ws?linkId=${linkId}` }));
    const url = `${base.replace(/^http/, 'ws')}/api/ws?linkId=${linkId}`;
    const extra = new WebSocket(url);
    const closed = await new Promise<{ code: number; reason: string }>((resolve) =>
      extra.addEventListener('close', (e) => resolve({ code: e.code, reason: e.reason })),
    );
    expect(closed).toEqual({ code: 1008, reason: 'Too many sockets for this link' });
    for (const socket of opened) socket.close();
  });
});
