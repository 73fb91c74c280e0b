import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { AccountsDeps } from '../src/domain/accounts/deps.ts';
import { startSession } from '../src/domain/accounts/sessions.ts';
import { CLIENT_MESSAGE_LIMIT, MAX_CLIENT_MESSAGE_BYTES } from '../src/http/live/protocol.ts';
import { createAccountRepositories } from '../src/infra/db/accounts/index.ts';
import { registerAndLogin } from './accounts/harness.ts';
import {
  Browser,
  folderMeta,
  openFilesHarness,
  patternFile,
  signedInUser,
  uploadFile,
  type FilesHarness,
  type User,
} from './files/harness.ts';
import { LiveClient, serveWithLiveHub, upgradeRequest } from './support/live-client.ts';
import { sqliteDiskEnv } from './support/sqlite-env.ts';
import { PART_BYTES } from '@sealbox/crypto';

/** /api/ws on a listening instance (docs/protocol.md "Live updates"). */
describe('live updates over /api/ws', () => {
  let h: FilesHarness;
  let app: FilesHarness['app'];
  let hub: ReturnType<typeof serveWithLiveHub>['hub'];
  let base: string;
  let alice: User;
  let bob: User;
  const open = (user: { browser: Browser }, options?: Parameters<typeof LiveClient.open>[2]) =>
    LiveClient.open(base, user.browser.cookie, options);
  const createFolder = async (user: User, parentId: string | null = null) => {
    const made = await folderMeta(user.rootKey, parentId);
    const { status } = await user.browser.call('POST', '/api/upload', { body: form(made.meta) });
    expect(status).toBe(201);
    return made;
  };
  const form = (meta: unknown) => {
    const body = new FormData();
    body.append('metadata', JSON.stringify(meta));
    return body;
  };

  beforeAll(async () => {
    h = await openFilesHarness((events) => sqliteDiskEnv(events, 'sealbox-live-'));
    ({ hub, app, base } = serveWithLiveHub(h));
    alice = await signedInUser(h, app);
    bob = await signedInUser(h, app);
  });

  afterAll(async () => {
    await app.stop(true);
    await h.cleanup();
  });

  test('the upgrade needs a session, our origin, and no link (yet)', async () => {
    const upgrade = (headers: Record<string, string>, path = '/api/ws') => upgradeRequest(base, path, headers);
    const cookie = `sealbox_session=${alice.browser.cookie}`;
    expect((await upgrade({})).status).toBe(401);
    expect((await upgrade({ cookie: 'sealbox_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' })).status).toBe(401);
    const crossSite = await upgrade({ cookie, origin: 'https://evil.example' });
    expect(crossSite.status).toBe(403);
    expect(((await crossSite.json()) as { message: string }).message).toBe('Cross-origin request refused');
    expect((await upgrade({ cookie }, `/api/ws?linkId=${crypto.randomUUID()}`)).status).toBe(404);
    // A half login (password right, TOTP code still due) gets no socket either.
    const accounts = { sessions: createAccountRepositories(h.db).sessions, clock: () => h.clock.now } as unknown as AccountsDeps;
    const row = await h.db.kysely
      .selectFrom('users')
      .select('login_verifier')
      .where('id', '=', alice.id)
      .executeTakeFirstOrThrow();
    const owner = { id: alice.id, loginVerifier: row.login_verifier };
    const pending = await startSession(accounts, owner, { totpPending: true, userAgent: null });
    expect((await upgrade({ cookie: `sealbox_session=${pending.token}` })).status).toBe(401);
    expect(hub.size()).toBe(0);
    // Same origin works, as does a client that sends no Origin at all (not a browser).
    const socket = await open(alice, { origin: base });
    expect(hub.size()).toBe(1);
    socket.close();
    await socket.closed;
  });

  test('events reach the users who can see the item, with ids and kinds only', async () => {
    const [a, b] = [await open(alice), await open(bob)];
    try {
      const folder = await createFolder(alice);
      const created = await a.event('item.created', folder.id);
      expect(created.event).toEqual({ kind: 'item.created', itemId: folder.id, parentId: null });
      // Bob's own change arrives at his socket, and nothing of Alice's came before it.
      const his = await createFolder(bob);
      await b.event('item.created', his.id);
      // The item first; his own tree.changed after it (held behind it: http/live/tree-hold.ts).
      await b.event('tree.changed');
      expect(b.events().map((e) => [e.kind, e.itemId])).toEqual([
        ['item.created', his.id],
        ['tree.changed', undefined],
      ]);
      expect(a.events().some((e) => e.itemId === his.id)).toBe(false);
      await a.event('tree.changed');
      expect(a.events().filter((e) => e.kind === 'tree.changed').length).toBe(1);
      for (const message of [...a.messages, ...b.messages]) {
        expect(JSON.stringify(message)).not.toContain('userIds');
        expect(JSON.stringify(message)).not.toContain(alice.id);
      }
    } finally {
      a.close();
      b.close();
    }
  });

  test('every kind of change is announced', async () => {
    const a = await open(alice);
    try {
      const parent = await createFolder(alice);
      const child = await createFolder(alice);
      const rename = await folderMeta(alice.rootKey, null, 'renamed');
      expect(
        (
          await alice.browser.put(`/api/file/${child.id}`, {
            type: 'rename',
            encryptedName: rename.meta.encryptedFileName,
            nameNonce: rename.meta.nameNonce,
          })
        ).status,
      ).toBe(200);
      expect(await a.event('item.renamed', child.id)).toMatchObject({ event: { parentId: null } });

      const wrapped = await folderMeta(parent.key, parent.id);
      expect(
        (
          await alice.browser.put(`/api/file/${child.id}`, {
            type: 'move',
            parentId: parent.id,
            encryptedKey: wrapped.meta.encryptedKey,
            keyNonce: wrapped.meta.keyNonce,
          })
        ).status,
      ).toBe(200);
      await a.next((m) => m.event?.kind === 'item.moved' && m.event.parentId === null);
      await a.next((m) => m.event?.kind === 'item.moved' && m.event.parentId === parent.id);

      const file = await patternFile(alice.rootKey, parent.id, PART_BYTES + 1000);
      await uploadFile(alice, file);
      expect(await a.event('upload.completed', file.id)).toMatchObject({ event: { parentId: parent.id } });
      await a.event('quota.changed');

      expect((await alice.browser.delete(`/api/file/${parent.id}`)).status).toBe(204);
      expect(await a.event('item.deleted', parent.id)).toMatchObject({ event: { parentId: null } });

      expect((await alice.browser.put('/api/profile', { email: `a${Date.now()}@example.com` })).status).toBe(200);
      await a.event('profile.changed');
    } finally {
      a.close();
    }
  });

  test("ending a session closes its sockets (4401) and tells the user's other tabs", async () => {
    const laptop = new Browser(app);
    const username = `s${Date.now() % 1e8}`;
    const { password } = await registerAndLogin(laptop, username);
    const phone = new Browser(app);
    expect((await phone.post('/api/login', { username, password })).status).toBe(200);
    const laptopSocket = await LiveClient.open(base, laptop.cookie);
    const phoneSocket = await LiveClient.open(base, phone.cookie);
    const sessions = (await laptop.get('/api/sessions')).body as Array<{ id: string; current: boolean }>;
    const phoneSession = sessions.find((s) => !s.current)!;
    expect((await laptop.delete(`/api/session/${phoneSession.id}`)).status).toBe(204);
    expect(await phoneSocket.closed).toEqual({ code: 4401, reason: 'Session ended' });
    expect(await laptopSocket.event('session.ended')).toMatchObject({ event: { sessionId: phoneSession.id } });
    // A socket cannot be reopened with the ended session.
    await expect(LiveClient.open(base, phone.cookie)).rejects.toThrow();

    expect((await laptop.post('/api/logout')).status).toBe(204);
    expect((await laptopSocket.closed).code).toBe(4401);
  });

  test('bad frames close only the socket that sent them', async () => {
    const bystander = await open(alice);
    const cases: Array<[string, string | Uint8Array, number]> = [
      ['binary', new Uint8Array([1, 2, 3]), 1003],
      ['not JSON', 'hello', 1007],
      ['unknown type', '{"type":"subscribe","userId":"x"}', 1007],
      ['extra fields', '{"type":"ping","x":1}', 1007],
      ['oversized', `{"type":"ping","pad":"${'x'.repeat(MAX_CLIENT_MESSAGE_BYTES)}"}`, 1009],
    ];
    try {
      for (const [, frame, code] of cases) {
        const socket = await open(alice);
        socket.send(frame);
        expect((await socket.closed).code).toBe(code);
      }
      const chatty = await open(alice);
      chatty.send('{"type":"ping"}');
      await chatty.next((m) => m.type === 'pong');
      for (let i = 0; i < CLIENT_MESSAGE_LIMIT.count + 5; i++) chatty.send('{"type":"ping"}');
      expect(await chatty.closed).toEqual({ code: 1008, reason: 'Too many messages' });

      const folder = await createFolder(alice);
      await bystander.event('item.created', folder.id);
      expect(bystander.socket.readyState).toBe(WebSocket.OPEN);
    } finally {
      bystander.close();
    }
  });

  test('a burst of 1,000 changes reaches the socket whole, and the server keeps answering', async () => {
    const a = await open(alice);
    try {
      const parent = await createFolder(alice);
      const made = await Promise.all(Array.from({ length: 1000 }, () => folderMeta(parent.key, parent.id)));
      let healthDuringBurst = 0;
      const burst = Promise.all(made.map((m) => alice.browser.call('POST', '/api/upload', { body: form(m.meta) })));
      const health = fetch(`${base}/api/health`).then((r) => (healthDuringBurst = r.status));
      const answers = await burst;
      await health;
      expect(answers.every((r) => r.status === 201)).toBe(true);
      expect(healthDuringBurst).toBe(200);
      await a.next(() => a.events().filter((e) => e.kind === 'item.created' && e.parentId === parent.id).length === 1000, 15_000);
    } finally {
      a.close();
    }
  }, 60_000);

  test('closing the hub (server stop) closes sockets with 1001', async () => {
    const a = await open(alice);
    hub.close();
    expect(await a.closed).toEqual({ code: 1001, reason: 'Server shutting down' });
  });
});
