import { beforeAll, expect, test } from 'bun:test';
import { sweep } from '../../../src/domain/files/index.ts';
import { postFolder, space, type FilesHarness } from '../../files/harness.ts';
import { anonymous, grant, makeLink, shareWith, type KeyedUser } from '../harness.ts';
import { PART0, SIZE, type UnfinishedSuite } from './context.ts';

/**
 * An upload ends with the access it came through (docs/protocol.md "Uploads by others"): a link
 * deleted, switched to viewer or expired; a user revoked, switched to viewer or leaving.
 */
export function accessEndsTests(suite: UnfinishedSuite) {
  let h: FilesHarness, alice: KeyedUser, bob: KeyedUser, carol: KeyedUser;
  beforeAll(() => {
    ({ h, alice, bob, carol } = suite);
  });
  const { unchanged, folder, started, part0, uploadRow, listedIds, revoke, exactSpace } = suite;

  test('deleting a link ends every upload started through it at once; a part sent afterwards is refused', async () => {
    const drop = await folder();
    await shareWith(alice, drop, bob.id, true);
    const linkId = await makeLink(alice, drop, { edit: true });
    const otherLink = await makeLink(alice, drop, { edit: true });
    const visitor = anonymous(h);
    const anon = await started(visitor, drop, linkId);
    expect((await part0(visitor, anon.uploadId, linkId)).status).toBe(204);
    const signedIn = await started(carol.browser, drop, linkId);
    const throughOther = await started(visitor, drop, otherLink);
    const bobs = await started(bob.browser, drop);
    const before = await space(h, alice.id);

    expect((await alice.browser.call('DELETE', '/api/shared', { json: { type: 'link', linkId } })).status).toBe(204);
    expect([await uploadRow(anon.uploadId), await uploadRow(signedIn.uploadId)]).toEqual([undefined, undefined]);
    expect(await listedIds(alice)).toEqual([bobs.uploadId, throughOther.uploadId]);
    // Their reservations and the part already stored are freed with them.
    expect(await space(h, alice.id)).toEqual({
      ...before,
      used: before.used - PART0,
      reserved: before.reserved - 2 * SIZE + PART0,
    });
    await unchanged(async () => {
      expect((await part0(visitor, anon.uploadId, linkId)).status).toBe(404);
      expect((await part0(carol.browser, signedIn.uploadId, linkId)).status).toBe(404);
    });
    await exactSpace();
    for (const { uploadId } of [bobs, throughOther])
      expect((await alice.browser.delete(`/api/upload/${uploadId}`)).status).toBe(204);
  });

  test('switching a link to viewer ends its uploads at once; switched back, they do not return', async () => {
    const drop = await folder();
    const linkId = await makeLink(alice, drop, { edit: true });
    const visitor = anonymous(h);
    const anon = await started(visitor, drop, linkId);
    const before = await space(h, alice.id);
    expect((await alice.browser.put('/api/share', { type: 'link', linkId, edit: false })).status).toBe(200);
    expect(await uploadRow(anon.uploadId)).toBeUndefined();
    expect((await space(h, alice.id)).reserved).toBe(before.reserved - SIZE);
    expect((await alice.browser.put('/api/share', { type: 'link', linkId, edit: true })).status).toBe(200);
    await unchanged(async () => {
      expect((await part0(visitor, anon.uploadId, linkId)).status).toBe(404);
    });
    // A password change keeps the link an editor's: its uploads go on.
    const again = await started(visitor, drop, linkId);
    expect((await alice.browser.put('/api/share', { type: 'link', linkId, password: null })).status).toBe(200);
    expect(await uploadRow(again.uploadId)).toBeDefined();
    expect((await alice.browser.delete(`/api/upload/${again.uploadId}`)).status).toBe(204);
  });

  test("an expired link's uploads end at the sweep", async () => {
    const drop = await folder();
    const linkId = await makeLink(alice, drop, { edit: true, expires: 60 });
    const anon = await started(anonymous(h), drop, linkId);
    const before = await space(h, alice.id);
    h.clock.advance(61_000);
    try {
      expect((await sweep(h.files, { graceMs: 0 })).expiredLinks).toBe(1);
    } finally {
      h.clock.advance(-61_000);
    }
    expect(await uploadRow(anon.uploadId)).toBeUndefined();
    expect((await space(h, alice.id)).reserved).toBe(before.reserved - SIZE);
  });

  test('revoking a user, switching them to viewer or their leaving ends the uploads they can no longer finish', async () => {
    const team = await folder('team');
    const inner = await postFolder(alice, team, 'inner');
    await shareWith(alice, team, bob.id, true);
    await shareWith(alice, inner, bob.id, true);
    const inTeam = await started(bob.browser, team);
    const inInner = await started(bob.browser, inner);
    expect((await part0(bob.browser, inInner.uploadId)).status).toBe(204);
    const before = await space(h, alice.id);

    // Revoked on team: the upload there ends; the one in inner goes on under bob's entry there.
    expect((await revoke(team.id, bob.id)).status).toBe(204);
    expect(await uploadRow(inTeam.uploadId)).toBeUndefined();
    expect(await uploadRow(inInner.uploadId)).toBeDefined();
    expect((await space(h, alice.id)).reserved).toBe(before.reserved - SIZE);
    await unchanged(async () => {
      expect((await part0(bob.browser, inTeam.uploadId)).status).toBe(404);
      // A revoked editor reaches nothing of alice's uploads.
      expect((await bob.browser.delete(`/api/upload/${inTeam.uploadId}`)).status).toBe(404);
    });

    // Switched to viewer on inner: that one ends too, with the part it had sent.
    const viewerGrant = await grant(alice, inner, bob.id, false);
    const switched = await alice.browser.put('/api/share', {
      type: 'user',
      fileId: inner.id,
      userId: bob.id,
      edit: false,
      signature: viewerGrant.signature,
    });
    expect(switched.status).toBe(200);
    expect(await uploadRow(inInner.uploadId)).toBeUndefined();
    expect(await space(h, alice.id)).toMatchObject({
      used: before.used - PART0,
      reserved: before.reserved - 2 * SIZE + PART0,
    });
    expect((await part0(bob.browser, inInner.uploadId)).status).toBe(404);

    // Leaving a share (the recipient drops it) ends theirs as well.
    const other = await folder('other');
    await shareWith(alice, other, bob.id, true);
    const inOther = await started(bob.browser, other);
    expect((await revoke(other.id, bob.id, bob)).status).toBe(204);
    expect(await uploadRow(inOther.uploadId)).toBeUndefined();
    await exactSpace();
  });
}
