import { expect } from 'bun:test';
import { KDF_V2 } from '@sealbox/crypto';
import { newLinkId } from '../../src/domain/files/links.ts';
import { uniqueName } from '../accounts/harness.ts';
import { keyedUser, sharingAccount } from '../sharing/harness.ts';
import type { RouteMatrix } from './context.ts';
import { b64, form, random64, reusable, type Fixtures } from './fixtures.ts';
import { each, full, OWN_SESSION, PUBLIC, SIGNED_IN, USERS, type Row } from './outcomes.ts';

/** The smallest PNG the avatar check accepts: its signature. */
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);

/** The rows of the routes open to anyone and of the caller's own account (docs/protocol.md "Accounts"). */
export function accountRows({ h, alice, viewerLink, passwordLink }: RouteMatrix, { aliceSession }: Fixtures): Row[] {
  return [
    // Public: accounts, health, link opening. A half login or a link does not change them.
    { route: 'GET /api/health', expect: PUBLIC, build: () => ({ path: '/api/health' }) },
    // A phrase nobody made: public, and refused alike for everyone (signed in or not).
    {
      route: 'POST /api/recovery/open',
      expect: full(each('unauthorized')),
      build: () => ({ path: '/api/recovery/open', json: { username: alice.username, recoveryAuth: random64(32) } }),
    },
    {
      route: 'POST /api/recovery/reset',
      expect: full(each('unauthorized')),
      changes: true,
      build: () => ({
        path: '/api/recovery/reset',
        json: {
          username: alice.username,
          ...resealed(''),
          recoveryAuth: random64(32),
          recoverySealed: b64(64),
          recoveryNonce: random64(12),
        },
      }),
    },
    { route: 'GET /api/account/recovery', expect: SIGNED_IN, build: () => ({ path: '/api/account/recovery' }) },
    {
      // Shapes the server checks; the caller's phrase is then replaced by one nobody knows.
      route: 'PUT /api/account/recovery',
      expect: SIGNED_IN,
      changes: true,
      build: async () => ({
        path: '/api/account/recovery',
        json: {
          currentPassword: (await sharingAccount()).registration.password,
          recoveryAuth: random64(32),
          recoverySealed: b64(64),
          recoveryNonce: random64(12),
        },
      }),
    },
    {
      // Signed-in only; the name typed back is checked before anything else, so no caller's
      // account goes: a signed-in caller gets 400 and nothing changes.
      route: 'POST /api/account/delete',
      expect: full(
        Object.fromEntries(Object.entries(SIGNED_IN).map(([name, outcome]) => [name, outcome === 'ok' ? 400 : outcome])),
      ),
      changes: true,
      build: async () => ({
        path: '/api/account/delete',
        json: { password: (await sharingAccount()).registration.password, confirm: 'not-the-callers-name' },
      }),
    },
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
    {
      // The callers have no TOTP on: past the session check, the state refuses them (400) and nothing changes.
      route: 'PUT /api/totp',
      label: 'recovery-codes',
      expect: full({ ...each('unauthorized'), ...each(400, USERS) }),
      changes: true,
      build: async () => ({
        path: '/api/totp',
        json: { action: 'recovery-codes', password: (await sharingAccount()).registration.password },
      }),
    },
    { route: 'GET /api/totp', expect: SIGNED_IN, build: () => ({ path: '/api/totp' }) },
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
    {
      // Answers the sealed account only to the current login password, as a sign-in would.
      route: 'POST /api/account/sealed',
      expect: SIGNED_IN,
      build: async () => ({
        path: '/api/account/sealed',
        json: { currentPassword: (await sharingAccount()).registration.password },
      }),
    },
  ];
}

/**
 * An account re-sealed as the server sees it (it cannot open the bundle, only check its shape):
 * new login password b64(32), fresh salts and iv.
 */
const resealed = (currentPassword: string) => ({
  currentPassword,
  password: b64(32),
  passwordSalt: random64(16),
  salt: random64(16),
  iv: random64(12),
  encryptedPrivateKey: b64(64),
  kdf: KDF_V2,
});

/** Last: these replace the caller's password keys, or end (or replace) its session. */
export function sessionEndRows({ spare }: RouteMatrix): Row[] {
  return [
    {
      // Shapes the server checks (it cannot open the sealed bundle); the caller's password then changes.
      route: 'PUT /api/account/kdf',
      expect: SIGNED_IN,
      changes: true,
      terminal: true,
      build: async () => ({ path: '/api/account/kdf', json: resealed((await sharingAccount()).registration.password) }),
    },
    {
      // After the row above, the caller's login password is that row's `password`; this one keeps it.
      route: 'PUT /api/account/password',
      expect: SIGNED_IN,
      changes: true,
      terminal: true,
      build: () => ({ path: '/api/account/password', json: resealed(b64(32)) }),
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
