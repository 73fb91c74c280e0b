import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { KDF_V2, partCount, toBase64 } from '@sealbox/crypto';
import { connect } from 'node:net';
import { generate } from 'otplib';
import { newLinkId } from '../../src/domain/files/links.ts';
import { ORIGIN, uniqueName } from '../accounts/harness.ts';
import {
  Browser,
  fileMeta,
  folderMeta,
  openFilesHarness,
  partBytes,
  patternBytes,
  postUpload,
  type Encrypted,
  type FilesHarness,
  type MakeFilesEnv,
  type Made,
} from '../files/harness.ts';
import {
  anonymous,
  create,
  grant,
  keyedUser,
  makeLink,
  sharingAccount,
  shareWith,
  snapshot as sharingSnapshot,
  withLink,
  type KeyedUser,
} from '../sharing/harness.ts';

/**
 * Every route of the app, for every kind of caller, by construction: the rows below are checked
 * against the app's own route table (`app.routes`), so a route without a row (or a row whose
 * route is gone) fails the first test by name. Each row says what each caller gets, and builds a
 * valid request; the second test runs every row for every caller, on the fixture's id and on a
 * random one, and checks that refused state-changing calls changed nothing.
 */

export const CALLERS = [
  'owner',
  'editor',
  'viewer',
  'revoked user',
  'stranger',
  'viewer link',
  'editor link',
  'expired link',
  'password link without its proof',
  'link used outside its subtree',
  'no session',
  'TOTP-pending session',
] as const;
export type CallerName = (typeof CALLERS)[number];

/** The class of an answer: 'ok' is any 2xx; a number is that exact status. */
export type Outcome = 'ok' | 'unauthorized' | 'forbidden' | 'not-found' | number;
const STATUS: Record<Exclude<Outcome, 'ok' | number>, number> = { unauthorized: 401, forbidden: 403, 'not-found': 404 };

type Expect = Record<CallerName, Outcome>;

const each = (outcome: Outcome, names: readonly CallerName[] = CALLERS) =>
  Object.fromEntries(names.map((n) => [n, outcome])) as Partial<Expect>;
const USERS: CallerName[] = ['owner', 'editor', 'viewer', 'revoked user', 'stranger'];
const LINKS: CallerName[] = [
  'viewer link',
  'editor link',
  'expired link',
  'password link without its proof',
  'link used outside its subtree',
];
const BAD_LINKS: CallerName[] = ['expired link', 'password link without its proof', 'link used outside its subtree'];
const full = (e: Partial<Expect>): Expect => {
  for (const name of CALLERS) if (e[name] === undefined) throw new Error(`no outcome for ${name}`);
  return e as Expect;
};

/** Open to anyone, session or not (a session, even a half one, is ignored). */
export const PUBLIC = full(each('ok'));
/** The caller's own account: any signed-in user; link holders have no session. */
export const SIGNED_IN = full({ ...each('unauthorized'), ...each('ok', USERS) });
/** Reading an item of the owner's shared folder W (a principal route: links may call it). */
export const ITEM_READ = full({
  owner: 'ok',
  editor: 'ok',
  viewer: 'ok',
  'revoked user': 'not-found',
  stranger: 'not-found',
  'viewer link': 'ok',
  'editor link': 'ok',
  ...each('not-found', BAD_LINKS),
  'no session': 'unauthorized',
  'TOTP-pending session': 'unauthorized',
});
/** Changing W's contents: read access is 403, no access 404. */
export const ITEM_WRITE = full({ ...ITEM_READ, viewer: 'forbidden', 'viewer link': 'forbidden' });
/** Sharing W: the owner only; sharing needs a session, so link holders get 401. */
export const ITEM_SHARE = full({
  ...each('unauthorized'),
  owner: 'ok',
  editor: 'forbidden',
  viewer: 'forbidden',
  'revoked user': 'not-found',
  stranger: 'not-found',
});
/** The owner's own upload in progress, or own session: anyone else's answers 404 alike. */
export const OWNERS_ONLY = full({ ...ITEM_READ, ...each('not-found', [...USERS, ...LINKS]), owner: 'ok' });
/** Without an id: the caller's own top level, or the item a live link points to. */
export const OWN_VIEW = full({ ...ITEM_READ, ...each('ok', USERS), 'link used outside its subtree': 'ok' });
export const OWN_SESSION = full({ ...SIGNED_IN, ...each('not-found', USERS), owner: 'ok' });

/** With a random id in place of the fixture's: 401 stays 401, anything else is 404. */
const missingOf = (e: Expect): Expect =>
  Object.fromEntries(CALLERS.map((n) => [n, e[n] === 'unauthorized' ? 'unauthorized' : 'not-found'])) as Expect;

export interface Spec {
  path: string;
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
}

export interface Caller {
  name: CallerName;
  browser: Browser;
  linkId?: string;
}

export interface Row {
  /** `METHOD /path` exactly as the app's route table has it. */
  route: string;
  /** Which of several rows of one route (another body or query). */
  label?: string;
  expect: Expect;
  /** Routes that name an item (or upload, session, link): the fixture's id, fresh for a call expected to succeed. */
  target?: (fresh: boolean) => Promise<string>;
  /** What a random id answers; defaults to 404 for everyone the row does not answer 401. */
  missing?: Expect;
  /** A random id of the right shape; defaults to a random UUID. */
  randomId?: () => string;
  /** Refused calls must leave the database and blobs as they were. */
  changes?: boolean;
  /** Ends or replaces the caller's session (login, logout): run after every other row. */
  terminal?: boolean;
  build: (caller: Caller, id: string) => Spec | Promise<Spec>;
}

const routeOf = (r: { method: string; path: string }) => `${r.method} ${r.path}`;

/** What is wrong between the app's routes and the rows, one line each. */
export function coverageProblems(routes: Array<{ method: string; path: string }>, rows: Array<{ route: string }>): string[] {
  const have = new Set(routes.map(routeOf));
  const covered = new Set(rows.map((r) => r.route));
  return [
    ...[...have].filter((r) => !covered.has(r)).map((r) => `add a row for ${r}`),
    ...[...covered].filter((r) => !have.has(r)).map((r) => `the row for ${r} names no route of the app: remove it`),
  ];
}

const b64 = (n: number) => toBase64(new Uint8Array(n).fill(1));
const random64 = (n: number) => toBase64(crypto.getRandomValues(new Uint8Array(n)));
/** The smallest PNG the avatar check accepts: its signature. */
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);

/** One fixture per call that succeeds, one shared by every refused call. */
function reusable(make: () => Promise<string>) {
  let shared: Promise<string> | undefined;
  return (fresh: boolean) => {
    if (fresh) return make();
    shared ??= make();
    return shared;
  };
}

export function routeMatrixSuite(name: string, makeEnv: MakeFilesEnv) {
  describe(`route matrix: ${name}`, () => {
    let h: FilesHarness;
    let alice: KeyedUser;
    let erin: KeyedUser;
    /** Has an editor entry on W. */
    let editorUser: KeyedUser;
    /** alice's W/{inner/{doc2}, doc}, shared with the editor, the viewer and (revoked) another user. */
    let W: Made;
    let inner: Made;
    let doc: Encrypted;
    let viewerLink: string;
    let passwordLink: string;
    /** A user whose credentials the login row uses. */
    let spare: KeyedUser;
    const callers: Caller[] = [];
    const rows: Row[] = [];

    /** A request as `caller`'s browser sends it, without touching its cookie jar. */
    const send = async (caller: Caller, spec: Spec, method: string) => {
      if (method === 'WS') return upgrade(caller, spec);
      const headers: Record<string, string> = {
        'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36',
        'x-forwarded-for': caller.browser.options.ip ?? '203.0.113.1',
        ...spec.headers,
      };
      if (method !== 'GET') headers.origin = ORIGIN;
      const jar = [
        ...(caller.browser.cookie ? [`sealbox_session=${caller.browser.cookie}`] : []),
        ...[...caller.browser.linkCookies].map(([n, v]) => `${n}=${v}`),
      ];
      if (jar.length > 0) headers.cookie = jar.join('; ');
      let body = spec.body;
      if (spec.json !== undefined) {
        body = JSON.stringify(spec.json);
        headers['content-type'] = 'application/json';
        headers['content-length'] = String(Buffer.byteLength(body));
      }
      const response = await h.app.handle(
        new Request(`${ORIGIN}${withLink(spec.path, caller.linkId)}`, { method, headers, body: body ?? null }),
      );
      await response.arrayBuffer();
      return response.status;
    };

    /** A WebSocket upgrade as `caller`, over TCP to a listening app of the harness: the answer's status. */
    let listening: ReturnType<FilesHarness['makeApp']> | undefined;
    const upgrade = async (caller: Caller, spec: Spec) => {
      if (!listening) {
        listening = h.makeApp();
        listening.listen({ hostname: '127.0.0.1', port: 0 });
      }
      const port = listening.server?.port;
      if (port === undefined) throw new Error('the live app is not listening');
      const cookies = [
        ...(caller.browser.cookie ? [`sealbox_session=${caller.browser.cookie}`] : []),
        ...[...caller.browser.linkCookies].map(([n, v]) => `${n}=${v}`),
      ];
      const head = [
        `GET ${withLink(spec.path, caller.linkId)} HTTP/1.1`,
        `Host: 127.0.0.1:${port}`,
        `Origin: http://127.0.0.1:${port}`,
        'Connection: Upgrade',
        'Upgrade: websocket',
        'Sec-WebSocket-Version: 13',
        `Sec-WebSocket-Key: ${btoa('0123456789abcdef')}`,
        ...(cookies.length > 0 ? [`Cookie: ${cookies.join('; ')}`] : []),
        '',
        '',
      ].join('\r\n');
      return await new Promise<number>((resolve, reject) => {
        let seen = '';
        const socket = connect(port, '127.0.0.1', () => socket.write(head));
        socket.on('data', (chunk) => {
          seen += chunk.toString('latin1');
          const status = /^HTTP\/1\.1 (\d{3})/.exec(seen);
          if (status) {
            socket.destroy();
            resolve(Number(status[1]));
          }
        });
        socket.on('error', reject);
        socket.on('close', () => reject(new Error(`no answer to the upgrade: ${JSON.stringify(seen)}`)));
      });
    };

    /** Everything a refused call must leave untouched: items, parts, uploads, quota, blobs, grants, links, accounts. */
    const snapshot = async () => {
      const k = h.db.kysely;
      return {
        ...(await sharingSnapshot(h)),
        accounts: await k.selectFrom('users').selectAll().orderBy('id').execute(),
        sessions: await k.selectFrom('sessions').select(['id', 'user_id', 'totp_pending']).orderBy('id').execute(),
        pins: await k.selectFrom('key_pins').selectAll().orderBy('user_id').execute(),
      };
    };

    beforeAll(async () => {
      h = await openFilesHarness(makeEnv);
      alice = await keyedUser(h);
      const [editor, viewer, revoked, stranger] = [
        await keyedUser(h),
        await keyedUser(h),
        await keyedUser(h),
        await keyedUser(h),
      ];
      erin = await keyedUser(h);
      editorUser = editor;
      spare = await keyedUser(h);
      W = await folderMeta(alice.rootKey, null, 'W');
      await create(alice, W);
      inner = await folderMeta(W.key, W.id, 'inner');
      await create(alice, inner);
      doc = await fileMeta(W.key, W.id, patternBytes(500, 11), 'doc');
      await create(alice, doc);
      await shareWith(alice, W, editor.id, true);
      await shareWith(alice, W, viewer.id, false);
      await shareWith(alice, W, revoked.id, true);
      const revoke = await alice.browser.call('DELETE', '/api/shared', {
        json: { type: 'user', fileId: W.id, userId: revoked.id },
      });
      if (revoke.status !== 204) throw new Error(`revoke failed: ${revoke.status}`);
      const expired = await makeLink(alice, W, { edit: true, expires: 1 });
      h.clock.advance(2000);
      viewerLink = await makeLink(alice, W);
      passwordLink = await makeLink(alice, W, { edit: true, password: 'pw' });

      // A user with TOTP on, half logged in: the password was right, the code not sent yet.
      const tina = await keyedUser(h);
      const { registration } = await sharingAccount();
      const setup = await tina.browser.put('/api/totp', { action: 'setup', password: registration.password });
      const code = await generate({ secret: setup.body.secret, epoch: Math.floor(h.clock.now / 1000) });
      if ((await tina.browser.put('/api/totp', { action: 'confirm', code })).status !== 200) throw new Error('TOTP confirm');
      const pending = new Browser(h.app);
      if ((await pending.post('/api/login', { username: tina.username, password: registration.password })).status !== 307)
        throw new Error('TOTP-pending login');

      callers.push(
        { name: 'owner', browser: alice.browser },
        { name: 'editor', browser: editor.browser },
        { name: 'viewer', browser: viewer.browser },
        { name: 'revoked user', browser: revoked.browser },
        { name: 'stranger', browser: stranger.browser },
        { name: 'viewer link', browser: anonymous(h), linkId: viewerLink },
        { name: 'editor link', browser: anonymous(h), linkId: await makeLink(alice, W, { edit: true }) },
        { name: 'expired link', browser: anonymous(h), linkId: expired },
        { name: 'password link without its proof', browser: anonymous(h), linkId: passwordLink },
        { name: 'link used outside its subtree', browser: anonymous(h), linkId: await makeLink(alice, inner, { edit: true }) },
        { name: 'no session', browser: anonymous(h) },
        { name: 'TOTP-pending session', browser: pending },
      );
      rows.push(...buildRows());
    }, 60_000);
    afterAll(async () => {
      await listening?.stop(true);
      await h?.cleanup();
    });

    /** A fresh file of alice's in W. */
    const freshFile = async () => {
      const made = await fileMeta(W.key, W.id, patternBytes(100, 5));
      await create(alice, made);
      return made.id;
    };
    /** An upload of alice's into W, started (parts not sent), or with every part sent. */
    const firstParts = new Map<string, Uint8Array<ArrayBuffer>>();
    const startUpload = async (sendParts: boolean, by: KeyedUser = alice) => {
      const made = await fileMeta(W.key, W.id, patternBytes(300, 6));
      const started = await postUpload(by.browser, made.meta);
      if (started.status !== 201) throw new Error(`upload start: ${started.status} ${JSON.stringify(started.body)}`);
      const uploadId = started.body.uploadId as string;
      firstParts.set(uploadId, partBytes(made.cipher, 0));
      if (sendParts)
        for (let n = 0; n < partCount(made.cipher.byteLength); n++) {
          const bytes = partBytes(made.cipher, n);
          const sent = await alice.browser.call('PUT', `/api/upload/${uploadId}/part/${n}`, {
            body: bytes,
            headers: { 'content-type': 'application/octet-stream', 'content-length': String(bytes.byteLength) },
          });
          if (sent.status !== 204) throw new Error(`part: ${sent.status}`);
        }
      return uploadId;
    };
    /** A fresh folder of alice's in W (and its key, for grants), optionally shared with erin as viewer. */
    const folders = new Map<string, Made>();
    const folderIn = async () => {
      const made = await folderMeta(W.key, W.id);
      await create(alice, made);
      folders.set(made.id, made);
      return made;
    };
    const sharedWithErin = async () => {
      const made = await folderIn();
      await shareWith(alice, made, erin.id, false);
      return made.id;
    };
    /** Another signed-in browser of alice's: the id of its session. */
    const aliceSession = async () => {
      const other = new Browser(h.app);
      const { registration } = await sharingAccount();
      await other.post('/api/login', { username: alice.username, password: registration.password });
      const list = await other.get('/api/sessions');
      return (list.body as Array<{ id: string; current: boolean }>).find((s) => s.current)!.id;
    };

    function buildRows(): Row[] {
      const form = (fields: Record<string, string | Blob>) => {
        const body = new FormData();
        for (const [k, v] of Object.entries(fields)) body.append(k, v);
        return body;
      };
      const uploadPart = reusable(() => startUpload(false));
      return [
        // Public: accounts, health, link opening. A half login or a link does not change them.
        { route: 'GET /api/health', expect: PUBLIC, build: () => ({ path: '/api/health' }) },
        { route: 'GET /api/check', expect: PUBLIC, build: () => ({ path: '/api/check?username=nobody-here' }) },
        {
          route: 'POST /api/register',
          expect: PUBLIC,
          build: async () => ({
            path: '/api/register',
            json: { ...(await sharingAccount()).registration, username: uniqueName('r'), email: null },
          }),
        },
        {
          route: 'GET /api/users/search/:name',
          label: 'the login lookup, limit=1',
          expect: PUBLIC,
          build: () => ({ path: `/api/users/search/${alice.username}?limit=1` }),
        },
        {
          route: 'GET /api/users/search/:name',
          label: 'the share dialog search',
          expect: SIGNED_IN,
          build: () => ({ path: `/api/users/search/${alice.username.slice(0, 3)}?limit=5` }),
        },
        {
          route: 'GET /api/avatars/:file',
          expect: PUBLIC,
          target: async () => alice.id,
          // The default avatar for an id that is no user's.
          missing: full(each('ok')),
          build: (_c, id) => ({ path: `/api/avatars/${id}.png` }),
        },
        {
          route: 'GET /api/shared/:id',
          expect: PUBLIC,
          target: async () => viewerLink,
          randomId: newLinkId,
          build: (_c, id) => ({ path: `/api/shared/${id}` }),
        },
        {
          route: 'POST /api/shared/:id',
          expect: PUBLIC,
          target: async () => passwordLink,
          randomId: newLinkId,
          build: (_c, id) => ({ path: `/api/shared/${id}`, json: { password: 'pw' } }),
        },
        // Unknown API paths fall to the web app's catch-all, which answers 404 for /api/*.
        { route: 'GET /*', expect: full(each('not-found')), build: () => ({ path: '/api/no-such-route' }) },

        // The caller's own account.
        { route: 'GET /api/profile', expect: SIGNED_IN, build: () => ({ path: '/api/profile' }) },
        {
          route: 'PUT /api/profile',
          expect: SIGNED_IN,
          changes: true,
          build: () => ({ path: '/api/profile', json: { email: null } }),
        },
        {
          route: 'PUT /api/profile/preferences',
          expect: SIGNED_IN,
          changes: true,
          build: () => ({ path: '/api/profile/preferences', json: { gridView: true, sortBy: 'size' } }),
        },
        { route: 'GET /api/profile/pins', expect: SIGNED_IN, build: () => ({ path: '/api/profile/pins' }) },
        {
          route: 'PUT /api/profile/pins',
          expect: SIGNED_IN,
          changes: true,
          build: async (c) => {
            const current = await c.browser.call('GET', '/api/profile/pins');
            const version = current.status === 200 ? (current.body.version as number) : 0;
            return { path: '/api/profile/pins', json: { sealed: b64(40), nonce: b64(12), version } };
          },
        },
        {
          route: 'PUT /api/profile/upload',
          expect: SIGNED_IN,
          changes: true,
          build: () => ({ path: '/api/profile/upload', body: form({ avatar: new Blob([PNG], { type: 'image/png' }) }) }),
        },
        {
          route: 'PUT /api/totp',
          expect: SIGNED_IN,
          changes: true,
          build: async () => ({
            path: '/api/totp',
            json: { action: 'setup', password: (await sharingAccount()).registration.password },
          }),
        },
        { route: 'GET /api/sessions', expect: SIGNED_IN, build: () => ({ path: '/api/sessions' }) },
        {
          route: 'DELETE /api/session/:id',
          expect: OWN_SESSION,
          changes: true,
          target: reusable(aliceSession),
          build: (_c, id) => ({ path: `/api/session/${id}` }),
        },
        {
          route: 'GET /api/user/:id',
          expect: SIGNED_IN,
          target: async () => alice.id,
          build: (_c, id) => ({ path: `/api/user/${id}` }),
        },
        { route: 'GET /api/shared', expect: SIGNED_IN, build: () => ({ path: '/api/shared' }) },
        { route: 'GET /api/blocks', expect: SIGNED_IN, build: () => ({ path: '/api/blocks' }) },
        {
          route: 'PUT /api/blocks/:userId',
          expect: SIGNED_IN,
          changes: true,
          target: reusable(async () => (await keyedUser(h)).id),
          build: (_c, id) => ({ path: `/api/blocks/${id}` }),
        },
        {
          // Only a block of the caller's own can be lifted: alice's, here.
          route: 'DELETE /api/blocks/:userId',
          expect: OWN_SESSION,
          changes: true,
          target: reusable(async () => {
            const blocked = await keyedUser(h);
            expect((await alice.browser.put(`/api/blocks/${blocked.id}`)).status).toBe(204);
            return blocked.id;
          }),
          build: (_c, id) => ({ path: `/api/blocks/${id}` }),
        },

        // Items of W.
        { route: 'GET /api/file', label: 'no id', expect: OWN_VIEW, build: () => ({ path: '/api/file' }) },
        {
          route: 'GET /api/file',
          expect: ITEM_READ,
          target: async () => W.id,
          build: (_c, id) => ({ path: `/api/file?id=${id}&includeAncestors=true` }),
        },
        {
          route: 'GET /api/file/data/:id',
          expect: ITEM_READ,
          target: async () => doc.id,
          build: (_c, id) => ({ path: `/api/file/data/${id}` }),
        },
        {
          route: 'PUT /api/file/:id',
          label: 'move into inner',
          expect: ITEM_WRITE,
          changes: true,
          target: reusable(freshFile),
          build: (_c, id) => ({
            path: `/api/file/${id}`,
            json: { type: 'move', parentId: inner.id, encryptedKey: b64(48), keyNonce: b64(12) },
          }),
        },
        {
          route: 'PUT /api/file/:id',
          label: 'rename',
          expect: ITEM_WRITE,
          changes: true,
          target: reusable(freshFile),
          build: (_c, id) => ({ path: `/api/file/${id}`, json: { type: 'rename', encryptedName: b64(30), nameNonce: b64(12) } }),
        },
        {
          route: 'DELETE /api/file/:id',
          expect: ITEM_WRITE,
          changes: true,
          target: reusable(freshFile),
          build: (_c, id) => ({ path: `/api/file/${id}` }),
        },
        {
          route: 'POST /api/upload',
          label: 'a whole file',
          expect: ITEM_WRITE,
          changes: true,
          target: async () => W.id,
          build: async (_c, id) => {
            const made = await fileMeta(W.key, id, patternBytes(200, 4));
            return { path: '/api/upload', body: form({ metadata: JSON.stringify(made.meta), file: new Blob([made.cipher]) }) };
          },
        },
        {
          // The id is the parent's: a folder made in W, or under a parent that does not exist.
          route: 'POST /api/upload',
          label: 'a folder',
          expect: ITEM_WRITE,
          changes: true,
          target: async () => W.id,
          build: async (_c, id) => {
            const made = await folderMeta(W.key, id);
            return { path: '/api/upload', body: form({ metadata: JSON.stringify(made.meta) }) };
          },
        },

        // alice's own uploads in progress.
        {
          route: 'PUT /api/upload/:uploadId/part/:n',
          expect: OWNERS_ONLY,
          changes: true,
          target: uploadPart,
          build: (_c, id) => {
            const bytes = firstParts.get(id) ?? new Uint8Array(316);
            return {
              path: `/api/upload/${id}/part/0`,
              body: bytes,
              headers: { 'content-type': 'application/octet-stream', 'content-length': String(bytes.byteLength) },
            };
          },
        },
        {
          route: 'GET /api/upload/:uploadId',
          expect: OWNERS_ONLY,
          target: uploadPart,
          build: (_c, id) => ({ path: `/api/upload/${id}` }),
        },
        {
          route: 'POST /api/upload/:uploadId/complete',
          expect: OWNERS_ONLY,
          changes: true,
          target: reusable(() => startUpload(true)),
          build: (_c, id) => ({ path: `/api/upload/${id}/complete` }),
        },
        {
          route: 'DELETE /api/upload/:uploadId',
          expect: OWNERS_ONLY,
          changes: true,
          target: reusable(() => startUpload(false)),
          build: (_c, id) => ({ path: `/api/upload/${id}` }),
        },
        {
          // The owner of the tree may end anyone's upload in it; nobody else but its uploader.
          route: 'DELETE /api/upload/:uploadId',
          label: "the editor's upload into W",
          expect: full({ ...OWNERS_ONLY, editor: 'ok' }),
          changes: true,
          target: reusable(() => startUpload(false, editorUser)),
          build: (_c, id) => ({ path: `/api/upload/${id}` }),
        },
        { route: 'GET /api/uploads', expect: SIGNED_IN, build: () => ({ path: '/api/uploads' }) },

        // Sharing W.
        {
          route: 'POST /api/share',
          label: 'type link',
          expect: ITEM_SHARE,
          changes: true,
          target: async () => W.id,
          build: (_c, id) => ({ path: '/api/share', json: { type: 'link', id, expires: 0, edit: false } }),
        },
        {
          route: 'POST /api/share',
          label: 'type user',
          expect: ITEM_SHARE,
          changes: true,
          target: reusable(async () => (await folderIn()).id),
          build: async (_c, id) => {
            const item = folders.get(id) ?? { id, key: crypto.getRandomValues(new Uint8Array(32)), meta: {} };
            return {
              path: '/api/share',
              json: { type: 'user', id, userId: erin.id, edit: false, ...(await grant(alice, item, erin.id, false)) },
            };
          },
        },
        {
          route: 'PUT /api/share',
          label: 'type user',
          expect: ITEM_SHARE,
          changes: true,
          target: reusable(sharedWithErin),
          build: (_c, id) => ({
            path: '/api/share',
            json: { type: 'user', fileId: id, userId: erin.id, edit: true, signature: b64(64) },
          }),
        },
        {
          route: 'DELETE /api/shared',
          label: 'type user',
          expect: ITEM_SHARE,
          changes: true,
          target: reusable(sharedWithErin),
          build: (_c, id) => ({ path: '/api/shared', json: { type: 'user', fileId: id, userId: erin.id } }),
        },
        {
          route: 'PUT /api/share',
          label: 'type link',
          expect: ITEM_SHARE,
          changes: true,
          target: reusable(() => makeLink(alice, W)),
          randomId: newLinkId,
          build: (_c, id) => ({ path: '/api/share', json: { type: 'link', linkId: id, edit: true } }),
        },
        {
          route: 'DELETE /api/shared',
          label: 'type link',
          expect: ITEM_SHARE,
          changes: true,
          target: reusable(() => makeLink(alice, W)),
          randomId: newLinkId,
          build: (_c, id) => ({ path: '/api/shared', json: { type: 'link', linkId: id } }),
        },
        {
          route: 'GET /api/shared/:id/users',
          expect: ITEM_SHARE,
          target: async () => W.id,
          build: (_c, id) => ({ path: `/api/shared/${id}/users` }),
        },
        {
          route: 'GET /api/shared/:id/links',
          expect: ITEM_SHARE,
          target: async () => W.id,
          build: (_c, id) => ({ path: `/api/shared/${id}/links` }),
        },

        // Live updates: an upgrade over TCP to a listening app (101 when admitted).
        { route: 'WS /api/ws', expect: OWN_VIEW, build: () => ({ path: '/api/ws' }) },

        // Last: these replace the caller's password keys, or end (or replace) its session.
        {
          // Shapes the server checks (it cannot open the sealed bundle); the caller's password then changes.
          route: 'PUT /api/account/kdf',
          expect: SIGNED_IN,
          changes: true,
          terminal: true,
          build: async () => ({
            path: '/api/account/kdf',
            json: {
              currentPassword: (await sharingAccount()).registration.password,
              password: b64(32),
              passwordSalt: random64(16),
              salt: random64(16),
              iv: random64(12),
              encryptedPrivateKey: b64(64),
              kdf: KDF_V2,
            },
          }),
        },
        {
          route: 'POST /api/login',
          expect: PUBLIC,
          terminal: true,
          build: async () => ({
            path: '/api/login',
            json: { username: spare.username, password: (await sharingAccount()).registration.password },
          }),
        },
        { route: 'POST /api/logout', expect: PUBLIC, terminal: true, build: () => ({ path: '/api/logout' }) },
      ];
    }

    test("every route of the app's table has a row, and every row a route", () => {
      expect(coverageProblems(h.app.routes, rows)).toEqual([]);
    });

    test('a route added without a row is named', () => {
      // Every route of the app as it is counts as covered here: only the new one may be named.
      const covered = [...rows, ...h.app.routes.map((r) => ({ route: routeOf(r) }))];
      const app = h.makeApp().put('/api/x', () => 'x');
      expect(coverageProblems(app.routes, covered)).toEqual(['add a row for PUT /api/x']);
      expect(coverageProblems(h.app.routes, [...covered, { route: 'GET /api/gone' }])).toEqual([
        'the row for GET /api/gone names no route of the app: remove it',
      ]);
    });

    test('every route x every caller x (existing id, random id): the expected answer, and a refusal changes nothing', async () => {
      const wrong: string[] = [];
      const ordered = [...rows.filter((r) => !r.terminal), ...rows.filter((r) => r.terminal)];
      for (const row of ordered) {
        const named = row.label ? `${row.route} [${row.label}]` : row.route;
        const method = row.route.slice(0, row.route.indexOf(' '));
        for (const caller of callers) {
          const cases: Array<{ label: string; want: Outcome; id: () => Promise<string> }> = [
            {
              label: 'existing',
              want: row.expect[caller.name],
              id: async () => (await row.target?.(row.expect[caller.name] === 'ok')) ?? '',
            },
          ];
          if (row.target)
            cases.push({
              label: 'random id',
              want: (row.missing ?? missingOf(row.expect))[caller.name],
              id: async () => row.randomId?.() ?? crypto.randomUUID(),
            });
          for (const { label, want, id } of cases) {
            const spec = await row.build(caller, await id());
            const check = row.changes && want !== 'ok';
            const before = check ? await snapshot() : undefined;
            const status = await send(caller, spec, method);
            const success = (status >= 200 && status < 300) || (method === 'WS' && status === 101);
            const good = want === 'ok' ? success : status === (typeof want === 'number' ? want : STATUS[want]);
            if (!good) wrong.push(`${named} as ${caller.name} (${label}): ${status}, expected ${want}`);
            if (before && JSON.stringify(await snapshot()) !== JSON.stringify(before))
              wrong.push(`${named} as ${caller.name} (${label}): refused, yet changed something`);
          }
        }
      }
      expect(wrong).toEqual([]);
    }, 120_000);
  });
}
