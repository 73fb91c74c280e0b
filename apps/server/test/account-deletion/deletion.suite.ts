import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { makeRecovery, PART_BYTES } from '@sealbox/crypto';
import { generate } from 'otplib';
import { deletedAccountName, INVALID_CREDENTIALS_TEXT } from '@sealbox/rules';
import { endAccount } from '../../src/domain/files/account-deletion.ts';
import { createAccountRepositories } from '../../src/infra/db/accounts/index.ts';
import { sweep } from '../../src/domain/files/index.ts';
import { RSA_WRAPPED_KEY_BYTES, SIGNATURE_BYTES } from '../../src/domain/files/validation.ts';
import { Browser } from '../accounts/harness.ts';
import {
  openFilesHarness,
  patternFile,
  postFolder,
  postUpload,
  seedTree,
  space,
  storedBytes,
  uploadFile,
  type FilesHarness,
  type MakeFilesEnv,
} from '../files/harness.ts';
import { b64 } from '../sharing/context.ts';
import { anonymous, keyedUser, makeLink, sharingAccount, shareWith, snapshot, type KeyedUser } from '../sharing/harness.ts';

const DAY = 24 * 60 * 60 * 1000;
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);

/**
 * Deleting an account (docs/protocol.md "Deleting an account"): only with the password, the
 * second factor and the name typed again; then at once nothing of it is reachable (sessions,
 * shares both ways, links, pins, recovery, blocks), every party is told, its items and blobs go,
 * the name stays reserved for the grace period, and a crash between the steps is finished by the sweep.
 */
export function accountDeletionSuite(name: string, makeEnv: MakeFilesEnv) {
  describe(`deleting an account: ${name}`, () => {
    let h: FilesHarness;
    let app: FilesHarness['app'];
    const purges: Array<Promise<void>> = [];
    let password: string;

    beforeAll(async () => {
      h = await openFilesHarness(makeEnv);
      app = h.makeApp({ onAccountPurge: (purged) => purges.push(purged) });
      password = (await sharingAccount()).registration.password;
    });
    afterAll(async () => {
      await h?.cleanup();
    });

    const user = () => keyedUser(h, app);
    const purged = () => Promise.all(purges.splice(0));
    const remove = (who: KeyedUser, body: Record<string, unknown> = {}) =>
      who.browser.post('/api/account/delete', { password, confirm: who.username, ...body });
    const owned = async (userId: string) =>
      (await h.db.kysely.selectFrom('items').select('id').where('owner_id', '=', userId).execute()).length;
    const blobKeys = async () => {
      const keys: string[] = [];
      for await (const key of h.blobs.list('')) keys.push(key);
      return keys.sort();
    };
    const userRow = (id: string) => h.db.kysely.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

    test('refused without a session, the typed name, the password or the TOTP code; nothing changes', async () => {
      const alice = await user();
      const folder = await postFolder(alice, null, 'kept');
      const before = await snapshot(h);
      expect((await new Browser(app).post('/api/account/delete', { password, confirm: alice.username })).status).toBe(401);
      const wrongName = await remove(alice, { confirm: alice.username.toUpperCase() });
      expect({ status: wrongName.status, message: wrongName.body.message }).toEqual({
        status: 400,
        message: 'Type your username exactly to confirm.',
      });
      const wrongPassword = await remove(alice, { password: 'A'.repeat(44) });
      expect({ status: wrongPassword.status, message: wrongPassword.body.message }).toEqual({
        status: 403,
        message: 'Wrong password.',
      });
      for (const bad of [{ confirm: 5 }, { password: '' }, { totpCode: 'x'.repeat(17) }, {}]) {
        const body = Object.keys(bad).length === 0 ? {} : { password, confirm: alice.username, ...bad };
        expect((await alice.browser.post('/api/account/delete', body)).status).toBe(400);
      }

      const { secret } = (await alice.browser.put('/api/totp', { action: 'setup', password })).body;
      const code = (ms: number) => generate({ secret, epoch: Math.floor(ms / 1000) });
      const confirmed = await alice.browser.put('/api/totp', { action: 'confirm', code: await code(h.clock.now) });
      expect(confirmed.status).toBe(200);
      const recoveryCodes = confirmed.body.recoveryCodes as string[];
      h.clock.advance(31_000);
      expect((await remove(alice)).body.message).toBe('Enter the 6-digit code from your authenticator app.');
      const wrong = (await code(h.clock.now)) === '000000' ? '111111' : '000000';
      expect((await remove(alice, { totpCode: wrong })).body.message).toBe('Invalid TOTP code.');
      expect(await snapshot(h)).toEqual(before);
      expect((await alice.browser.get(`/api/file?id=${folder.id}`)).status).toBe(200);

      // A TOTP recovery code stands in for the app's code here too; none of them outlives the account.
      expect((await remove(alice, { totpCode: recoveryCodes[0] })).status).toBe(204);
      await purged();
      expect(await owned(alice.id)).toBe(0);
      const codes = await h.db.kysely
        .selectFrom('totp_recovery_codes')
        .select('user_id')
        .where('user_id', '=', alice.id)
        .execute();
      expect(codes).toEqual([]);
    }, 60_000);

    test('ends every session, share (both ways), link, pin, recovery copy, block and avatar at once, told live', async () => {
      const [alice, bob, carol] = [await user(), await user(), await user()];
      const phone = new Browser(app, { ip: '203.0.113.9' });
      expect((await phone.post('/api/login', { username: alice.username, password })).status).toBe(200);
      expect((await alice.browser.call('PUT', '/api/profile/upload', { body: avatarForm() })).status).toBe(200);
      const pins = { sealed: 'c2VhbGVkIHBpbnMgb2YgYWxpY2U=', nonce: 'AAAAAAAAAAAAAAAA', version: 0 };
      expect((await alice.browser.put('/api/profile/pins', pins)).status).toBe(200);
      expect((await alice.browser.put(`/api/blocks/${carol.id}`)).status).toBe(204);
      expect((await carol.browser.put(`/api/blocks/${alice.id}`)).status).toBe(204);

      // alice: F/{a/{file}}, a top-level file with a link, and a big seeded tree under T.
      const F = await postFolder(alice, null, 'F');
      const A = await postFolder(alice, F, 'a');
      const inside = await patternFile(A.key, A.id, 70_000, 3);
      await uploadFile(alice, inside);
      const top = await patternFile(alice.rootKey, null, 5_000, 4);
      await uploadFile(alice, top);
      const T = await postFolder(alice, null, 'T');
      await seedTree(h, alice.id, T.id, [3, 4, 50], 7);
      await shareWith(alice, F, bob.id, false);
      const linkId = await makeLink(alice, top);
      // bob shares an editable folder with alice, who uploads into it: bob keeps that file.
      const B = await postFolder(bob, null, 'B');
      await shareWith(bob, B, alice.id, true);
      const given = await patternFile(B.key, B.id, 2_000, 5);
      await uploadFile(alice, given);
      // And starts one there she will never finish: it holds bob's space until it ends.
      const unfinished = await patternFile(B.key, B.id, PART_BYTES + 10, 6);
      expect((await postUpload(alice.browser, unfinished.meta)).status).toBe(201);
      expect((await space(h, bob.id)).reserved).toBeGreaterThan(0);
      expect((await bob.browser.get('/api/shared')).body.files.map((f: { id: string }) => f.id)).toEqual([F.id]);
      expect((await anonymous(h).get(`/api/shared/${linkId}`)).status).toBe(200);
      const aliceBlobs = (await blobKeys()).length;

      h.delivered.length = 0;
      expect((await remove(alice)).status).toBe(204);
      // At once, before the items are gone: nobody reaches anything of alice.
      const events = h.delivered.map((e) => ({ ...e }));
      const sessions = events.filter((e) => e.kind === 'session.ended');
      expect(sessions.length).toBe(2);
      expect(events).toContainEqual({ kind: 'share.deleted', itemId: F.id, userIds: [alice.id, bob.id] });
      expect(events).toContainEqual({ kind: 'share.deleted', itemId: B.id, userIds: [bob.id, alice.id] });
      expect(events).toContainEqual({ kind: 'link.deleted', itemId: top.id, userIds: [alice.id], linkIds: [linkId] });
      expect((await alice.browser.get('/api/profile')).status).toBe(401);
      expect((await phone.get('/api/profile')).status).toBe(401);
      expect((await bob.browser.get('/api/shared')).body.files).toEqual([]);
      expect((await bob.browser.get(`/api/file?id=${F.id}`)).status).toBe(404);
      expect((await anonymous(h).get(`/api/shared/${linkId}`)).status).toBe(404);
      expect((await bob.browser.get(`/api/shared/${B.id}/users`)).body).toEqual({ access: [], users: [] });

      await purged();
      expect(await owned(alice.id)).toBe(0);
      expect(await storedBytes(h, alice.id)).toBe(0);
      expect((await userRow(alice.id)).used_space).toBe(0);
      const blobs = await blobKeys();
      expect(blobs).not.toContain(`avatar-${alice.id}`);
      expect(blobs.length).toBeLessThan(aliceBlobs);
      const named = await h.db.kysely.selectFrom('item_parts').select('blob_key').execute();
      expect(blobs.filter((key) => key.startsWith('part-')).sort()).toEqual(named.map((r) => r.blob_key).sort());
      // What alice uploaded into bob's folder is bob's and stays; what she had not finished is gone.
      expect((await bob.browser.request('GET', `/api/file/data/${given.id}`)).status).toBe(200);
      // Named as a deleted account, not by the name it had (reserved for a while yet).
      const inB = await bob.browser.get(`/api/file?id=${B.id}`);
      expect(inB.body.users).toContainEqual({ id: alice.id, username: deletedAccountName(alice.id), avatarExtension: null });
      expect(await h.db.kysely.selectFrom('items').select('id').where('id', '=', unfinished.id).execute()).toEqual([]);
      expect((await space(h, bob.id)).reserved).toBe(0);

      const k = h.db.kysely;
      const row = await userRow(alice.id);
      expect(row).toMatchObject({ deleted_at: h.clock.now, login_verifier: '', encrypted_private_key: '', email: null });
      expect(row.avatar_extension).toBeNull();
      expect(await k.selectFrom('sessions').select('id').where('user_id', '=', alice.id).execute()).toEqual([]);
      expect(await k.selectFrom('key_pins').select('user_id').where('user_id', '=', alice.id).execute()).toEqual([]);
      const blocks = await k
        .selectFrom('share_blocks')
        .select('user_id')
        .where((eb) => eb.or([eb('user_id', '=', alice.id), eb('blocked_id', '=', alice.id)]))
        .execute();
      expect(blocks).toEqual([]);
      expect(await k.selectFrom('accesses').select('item_id').where('user_id', '=', alice.id).execute()).toEqual([]);
    }, 120_000);

    test('a deleted account is found by nobody and signs in nowhere; its name is free after the grace period', async () => {
      const [alice, bob] = [await user(), await user()];
      const oldCookie = alice.browser;
      const { registration } = await sharingAccount();
      const { phrase: _, ...recovery } = await makeRecovery('correct horse battery staple', registration, alice.id);
      expect((await alice.browser.put('/api/account/recovery', { currentPassword: password, ...recovery })).status).toBe(200);
      const openRecovery = () =>
        new Browser(app).post('/api/recovery/open', { username: alice.username, recoveryAuth: recovery.recoveryAuth });
      expect((await openRecovery()).status).toBe(200);
      expect((await remove(alice)).status).toBe(204);
      await purged();
      const login = await new Browser(app).post('/api/login', { username: alice.username, password });
      expect({ status: login.status, message: login.body.message }).toEqual({ status: 401, message: INVALID_CREDENTIALS_TEXT });
      for (const path of ['/api/profile', '/api/file', '/api/shared', '/api/account/recovery', '/api/sessions']) {
        expect({ path, status: (await oldCookie.get(path)).status }).toEqual({ path, status: 401 });
      }
      expect((await bob.browser.get(`/api/user/${alice.id}`)).status).toBe(404);
      expect((await bob.browser.get(`/api/users/search/${alice.username}`)).body).toEqual([]);
      const F = await postFolder(bob, null, 'for alice');
      const share = await bob.browser.post('/api/share', {
        type: 'user',
        id: F.id,
        userId: alice.id,
        edit: false,
        encryptedKey: b64(RSA_WRAPPED_KEY_BYTES),
        signature: b64(SIGNATURE_BYTES),
      });
      expect(share.status).toBe(404);
      expect((await bob.browser.put(`/api/blocks/${alice.id}`)).status).toBe(404);
      expect((await openRecovery()).status).toBe(401);
      expect(
        await h.db.kysely.selectFrom('account_recovery').select('user_id').where('user_id', '=', alice.id).execute(),
      ).toEqual([]);

      // Reserved: nobody takes the name (and so an old pin's trust) during the grace period.
      const again = () => new Browser(app).post('/api/register', { ...registration, username: alice.username, email: null });
      expect((await new Browser(app).get(`/api/check?username=${alice.username}`)).body).toEqual({ ok: false });
      expect((await again()).status).toBe(409);
      h.clock.advance(29 * DAY);
      await sweep(h.files, { graceMs: 0, nameGraceMs: 30 * DAY });
      expect((await userRow(alice.id)).username).toBe(alice.username);
      expect((await again()).status).toBe(409);
      h.clock.advance(DAY);
      // The earlier tests' deleted accounts come of age too.
      expect((await sweep(h.files, { graceMs: 0, nameGraceMs: 30 * DAY })).freedNames).toBeGreaterThanOrEqual(1);
      const taken = await again();
      expect(taken.status).toBe(201);
      expect(taken.body.id).not.toBe(alice.id);
      expect((await userRow(alice.id)).username).toBe(`deleted:${alice.id}`);
    }, 60_000);

    test('cut short after the account ended: the sweep removes the rest, two sweeps at once are safe', async () => {
      const alice = await user();
      const T = await postFolder(alice, null, 'T');
      await seedTree(h, alice.id, T.id, [5, 200], 9);
      const file = await patternFile(alice.rootKey, null, 9_000, 6);
      await uploadFile(alice, file);
      expect(await owned(alice.id)).toBe(1 + 5 + 1000 + 1);
      // As if the process died right after the first transaction committed.
      expect(await endAccount(h.files, alice.id, (id) => ({ kind: 'session.ended', userIds: [alice.id], sessionId: id }))).toBe(
        true,
      );
      expect(await endAccount(h.files, alice.id, () => ({ kind: 'session.ended', userIds: [] }))).toBe(false);
      // A request that was under way when the account ended changes nothing of it: every change of
      // an owner's tree, shares and links takes the owner's lock, which a deleted owner refuses
      // (the purge alone takes it anyway), and the account row takes no writes.
      await expect(h.files.store.transaction((tx) => tx.lockOwner(alice.id))).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await h.files.store.transaction((tx) => tx.lockOwner(alice.id, { evenDeleted: true }));
      const users = createAccountRepositories(h.db).users;
      expect(await users.update(alice.id, { email: 'back@example.org' })).toBeUndefined();
      expect((await userRow(alice.id)).email).toBeNull();
      expect((await alice.browser.get('/api/file')).status).toBe(401);
      const [first, second] = await Promise.all([sweep(h.files, { graceMs: 0 }), sweep(h.files, { graceMs: 0 })]);
      expect(first.purgedAccounts + second.purgedAccounts).toBeGreaterThanOrEqual(1);
      expect(await owned(alice.id)).toBe(0);
      expect((await userRow(alice.id)).used_space).toBe(0);
      const named = await h.db.kysely.selectFrom('item_parts').select('blob_key').execute();
      const parts = (await blobKeys()).filter((key) => key.startsWith('part-'));
      expect(parts).toEqual(named.map((r) => r.blob_key).sort());
      expect((await sweep(h.files, { graceMs: 0 })).purgedAccounts).toBe(0);
    }, 120_000);
  });
}

function avatarForm(): FormData {
  const form = new FormData();
  form.append('avatar', new File([PNG], 'me.png', { type: 'image/png' }));
  return form;
}
