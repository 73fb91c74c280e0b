import { beforeAll, describe, expect, test } from 'bun:test';
import { DEFAULT_AVATAR_SVG } from '../../src/http/routes/profile.ts';
import { PROFILE_KEYS, type AccountsSuite } from './context.ts';
import { registrationFor, signedInUser, uniqueName, type Harness } from './harness.ts';
import { QUOTA } from '../support/app-harness.ts';

const PUBLIC_USER_KEYS = ['avatarExtension', 'id', 'publicKey', 'signingPublicKey', 'username'];

/** Minimal files that start with each format's magic bytes. */
const IMAGES = {
  png: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]),
  jpg: new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0]),
  gif: new Uint8Array([...Buffer.from('GIF89a'), 1, 0, 1, 0, 0, 0, 0]),
  webp: new Uint8Array([...Buffer.from('RIFF'), 26, 0, 0, 0, ...Buffer.from('WEBPVP8 '), 0, 0, 0, 0]),
} as const;

const TYPES = { png: 'image/png', jpg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' } as const;

function avatarForm(bytes: Uint8Array<ArrayBuffer>, fileName: string, field = 'avatar'): FormData {
  const form = new FormData();
  form.append(field, new File([bytes], fileName, { type: 'image/png' }));
  return form;
}

/** Mixed case, so the sort must be case-insensitive to come out in order. */
function i18nCase(name: string): string {
  return name.length % 2 === 0 ? name.toUpperCase() : name;
}

/** The profile and preferences, other users as anyone sees them, and avatars (docs/protocol.md "Accounts"). */
export function profileTests(suite: AccountsSuite) {
  let h: Harness;
  beforeAll(() => {
    ({ h } = suite);
  });
  const { userRow, eventsOf, expectError } = suite;

  describe('profile and preferences', () => {
    test('GET /api/profile is the Profile shape', async () => {
      const { browser, id, username } = await signedInUser(h);
      const { status, body } = await browser.get('/api/profile');
      expect(status).toBe(200);
      expect(Object.keys(body).sort()).toEqual(PROFILE_KEYS);
      expect(body).toMatchObject({
        id,
        username,
        email: null,
        gridView: false,
        sortBy: 'name',
        sortOrder: 'asc',
        avatarExtension: null,
        usedSpace: 0,
        reservedSpace: 0,
        totalSpace: QUOTA,
        totpEnabled: false,
      });
      expect(typeof body.createdAt).toBe('number');
    });

    test('PUT /api/profile changes the email, 409 when taken, 400 when malformed (unchanged), null clears', async () => {
      const { browser, id } = await signedInUser(h);
      const other = await signedInUser(h);
      await other.browser.put('/api/profile', { email: `${other.username}@example.org` });
      const mine = `${uniqueName('mail')}@example.org`;
      const { status, body } = await browser.put('/api/profile', { email: mine });
      expect(status).toBe(200);
      expect(body.email).toBe(mine);
      expect(eventsOf(id, 'profile.changed').length).toBeGreaterThan(0);
      await expectError(
        browser.put('/api/profile', { email: `${other.username.toUpperCase()}@example.org` }),
        409,
        'CONFLICT',
        'Email is already in use!',
      );
      await expectError(browser.put('/api/profile', { email: 'broken' }), 400, 'VALIDATION', 'Invalid email!');
      await expectError(browser.put('/api/profile', {}), 400, 'VALIDATION');
      expect((await userRow(id)).email).toBe(mine);
      expect((await browser.put('/api/profile', { email: null })).body.email).toBeNull();
    });

    test('preferences: partial updates, bad values 400 and unchanged, an event naming only ids', async () => {
      const { browser, id } = await signedInUser(h);
      const before = eventsOf(id, 'profile.changed').length;
      expect((await browser.put('/api/profile/preferences', { gridView: true })).body).toMatchObject({
        gridView: true,
        sortBy: 'name',
        sortOrder: 'asc',
      });
      expect((await browser.put('/api/profile/preferences', { sortBy: 'modified', sortOrder: 'desc' })).body).toMatchObject({
        gridView: true,
        sortBy: 'modified',
        sortOrder: 'desc',
      });
      await expectError(browser.put('/api/profile/preferences', { sortBy: 'colour' }), 400, 'VALIDATION');
      await expectError(browser.put('/api/profile/preferences', { sortOrder: 'up' }), 400, 'VALIDATION');
      await expectError(browser.put('/api/profile/preferences', { gridView: 'yes' }), 400, 'VALIDATION');
      expect(await userRow(id)).toMatchObject({ grid_view: 1, sort_by: 'modified', sort_order: 'desc' });
      const events = eventsOf(id, 'profile.changed');
      expect(events.length).toBe(before + 2);
      expect(events.at(-1)).toEqual({ kind: 'profile.changed', userIds: [id] });
    });
  });

  describe('users', () => {
    test('GET /api/user/{id}: the public view; 404 for unknown and malformed ids', async () => {
      const alice = await signedInUser(h);
      const bob = await signedInUser(h);
      const { status, body } = await alice.browser.get(`/api/user/${bob.id}`);
      expect(status).toBe(200);
      expect(Object.keys(body).sort()).toEqual(PUBLIC_USER_KEYS);
      expect(body).toMatchObject({ id: bob.id, username: bob.username, avatarExtension: null });
      await expectError(alice.browser.get(`/api/user/${crypto.randomUUID()}`), 404, 'NOT_FOUND', 'User does not exist');
      await expectError(alice.browser.get('/api/user/1%27%20or%201=1'), 404, 'NOT_FOUND');
    });

    test('search: prefix, case-insensitive, sorted, self excluded, at most 10, pages', async () => {
      const prefix = `q${Math.random().toString(36).slice(2, 7)}`;
      const me = await signedInUser(h, { username: `${prefix}me` });
      const names = Array.from({ length: 12 }, (_, i) => `${prefix}${String.fromCharCode(97 + i)}`);
      for (const name of names.toReversed()) await h.browser().post('/api/register', await registrationFor(i18nCase(name)));
      const { status, body } = await me.browser.get(`/api/users/search/${prefix.toUpperCase()}`);
      expect(status).toBe(200);
      expect(body.length).toBe(10);
      expect(body.map((u: any) => u.username.toLowerCase())).toEqual(names.slice(0, 10));
      for (const user of body) expect(Object.keys(user).sort()).toEqual(PUBLIC_USER_KEYS);
      expect(body.some((u: any) => u.id === me.id)).toBe(false);
      const page = await me.browser.get(`/api/users/search/${prefix}?limit=5&offset=10`);
      expect(page.body.map((u: any) => u.username.toLowerCase())).toEqual(names.slice(10));
      expect((await me.browser.get(`/api/users/search/${prefix}me`)).body).toEqual([]);
      // Wildcards are plain characters.
      expect((await me.browser.get(`/api/users/search/${prefix.slice(0, 3)}%25`)).body).toEqual([]);
      expect((await me.browser.get(`/api/users/search/${prefix.slice(0, 3)}___`)).body).toEqual([]);
    });

    test.each([
      ['fewer than 3 characters', '/api/users/search/ab'],
      ['limit above 10', '/api/users/search/abc?limit=11'],
      ['limit 0', '/api/users/search/abc?limit=0'],
      ['a non-numeric limit', '/api/users/search/abc?limit=ten'],
      ['a negative offset', '/api/users/search/abc?offset=-1'],
    ])('search with %s is 400', async (_, path) => {
      const { browser } = await signedInUser(h);
      await expectError(browser.get(path), 400, 'VALIDATION');
    });
  });

  describe('avatars', () => {
    test.each(Object.keys(IMAGES) as Array<keyof typeof IMAGES>)(
      'a %s is accepted by its content and served with its type',
      async (ext) => {
        const { browser, id } = await signedInUser(h);
        const upload = await browser.call('PUT', '/api/profile/upload', { body: avatarForm(IMAGES[ext], 'picture.bin') });
        expect(upload.status).toBe(200);
        expect(upload.body).toEqual({ avatarExtension: ext });
        expect((await browser.get('/api/profile')).body.avatarExtension).toBe(ext);
        expect(eventsOf(id, 'profile.changed').length).toBeGreaterThan(0);
        const served = await h.browser().request('GET', `/api/avatars/${id}.${ext}?v=${Math.random()}`);
        expect(served.status).toBe(200);
        expect(served.headers.get('content-type')).toBe(TYPES[ext]);
        expect(served.headers.get('x-content-type-options')).toBe('nosniff');
        expect(served.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
        expect(new Uint8Array(await served.arrayBuffer())).toEqual(IMAGES[ext]);
        // Another extension than the stored one is the default.
        const other = await h.browser().request('GET', `/api/avatars/${id}.${ext === 'png' ? 'gif' : 'png'}`);
        expect(other.headers.get('content-type')).toBe('image/svg+xml');
      },
    );

    test('the default avatar when none: our SVG, nosniff', async () => {
      const { id } = await signedInUser(h);
      for (const path of [`/api/avatars/${id}.png`, `/api/avatars/${crypto.randomUUID()}.jpg`, `/api/avatars/${id}.svg?r=1`]) {
        const response = await h.browser().request('GET', path);
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toBe('image/svg+xml');
        expect(response.headers.get('x-content-type-options')).toBe('nosniff');
        const text = await response.text();
        expect(text).toBe(DEFAULT_AVATAR_SVG.toString());
        expect(text).toStartWith('<svg');
        expect(text).not.toContain('<script');
      }
    });

    test.each(['nope', `${crypto.randomUUID()}`, `${crypto.randomUUID()}.png.exe`, 'x.png', '..%2f..%2fetc%2fpasswd'])(
      'a malformed avatar name %p is 404',
      async (name) => {
        await expectError(h.browser().get(`/api/avatars/${name}`), 404, 'NOT_FOUND');
      },
    );

    test('text named .png, SVG, a missing field and an oversize image are refused; nothing changes', async () => {
      const { browser, id } = await signedInUser(h);
      await browser.call('PUT', '/api/profile/upload', { body: avatarForm(IMAGES.gif, 'a.gif') });
      const refuse = async (body: FormData, status: number, error: string) => {
        const result = await browser.call('PUT', '/api/profile/upload', { body });
        expect({ status: result.status, error: result.body.error }).toEqual({ status, error });
      };
      await refuse(avatarForm(new TextEncoder().encode('just some text, not an image'), 'photo.png'), 400, 'VALIDATION');
      await refuse(
        avatarForm(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'a.svg'),
        400,
        'VALIDATION',
      );
      await refuse(avatarForm(new Uint8Array(0), 'empty.png'), 400, 'VALIDATION');
      await refuse(avatarForm(IMAGES.png, 'a.png', 'picture'), 400, 'VALIDATION');
      const big = new Uint8Array(2 * 1024 * 1024 + 1);
      big.set(IMAGES.png);
      await refuse(avatarForm(big, 'big.png'), 413, 'TOO_LARGE');
      const exactly = new Uint8Array(2 * 1024 * 1024);
      exactly.set(IMAGES.png);
      expect((await browser.call('PUT', '/api/profile/upload', { body: avatarForm(exactly, 'max.png') })).status).toBe(200);
      // What was refused never replaced the stored avatar.
      await browser.call('PUT', '/api/profile/upload', { body: avatarForm(IMAGES.gif, 'a.gif') });
      await refuse(avatarForm(new TextEncoder().encode('text'), 'photo.png'), 400, 'VALIDATION');
      expect((await userRow(id)).avatar_extension).toBe('gif');
      const served = await h.browser().request('GET', `/api/avatars/${id}.gif`);
      expect(new Uint8Array(await served.arrayBuffer())).toEqual(IMAGES.gif);
    });
  });
}
