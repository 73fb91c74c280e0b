import { beforeAll, expect, test } from 'bun:test';
import { UNLIMITED } from '../../../src/domain/accounts/rate-limits.ts';
import { LINK_CAP_MESSAGE, UPLOADER_CAP_MESSAGE } from '../../../src/domain/files/unfinished.ts';
import { Browser } from '../../accounts/harness.ts';
import { folderMeta, postUpload, type FilesHarness } from '../../files/harness.ts';
import { anonymous, create, keyedUser, makeLink, shareWith, withLink, type KeyedUser } from '../harness.ts';
import { HOUR, MiB, SIZE, startMeta, type UnfinishedSuite } from './context.ts';

/**
 * What others may hold, and as whom (docs/protocol.md "Uploads by others"): the caps per link and
 * per other user, an anonymous holder recorded as such, and a creation limit per address.
 */
export function holderTests(suite: UnfinishedSuite) {
  let h: FilesHarness, alice: KeyedUser, carol: KeyedUser;
  beforeAll(() => {
    ({ h, alice, carol } = suite);
  });
  const { unchanged, folder, start, started, part0, exactSpace } = suite;

  test('a link, and each other user, may hold only so much unfinished; the owner is not held; refusals change nothing', async () => {
    const capped = h.makeApp({ maxUnfinishedBytes: { perLink: 2 * SIZE, perUploader: 2 * SIZE } });
    const as = (user: KeyedUser) => Object.assign(new Browser(capped), { cookie: user.browser.cookie });
    // Someone with no unfinished upload anywhere yet.
    const dave = await keyedUser(h);
    const drop = await folder();
    await shareWith(alice, drop, dave.id, true);
    const linkId = await makeLink(alice, drop, { edit: true });
    const [here, there] = [new Browser(capped, { ip: '198.51.100.20' }), new Browser(capped, { ip: '198.51.100.21' })];
    const first = await started(here, drop, linkId);
    await started(there, drop, linkId);
    await unchanged(async () => {
      for (const browser of [here, there, as(carol)]) {
        const refused = await start(browser, drop, linkId);
        expect([refused.status, refused.body.message]).toEqual([402, LINK_CAP_MESSAGE]);
      }
    });
    // Sending a part does not make room: the cap counts the whole size of what is unfinished
    // (counting what is still reserved, a file of one part would now fit).
    expect((await part0(here, first.uploadId, linkId)).status).toBe(204);
    expect((await start(here, drop, linkId, 8 * MiB)).status).toBe(402);
    // Whole small files still go in, and another link has its own room.
    const small = await startMeta(drop, 1000);
    expect((await postUpload(there, small.meta, new Uint8Array(small.meta.size), withLink('/api/upload', linkId))).status).toBe(
      201,
    );
    const otherLink = await makeLink(alice, drop, { edit: true });
    await started(here, drop, otherLink);

    // dave, an editor: two of his own, then 402, through a link or not.
    const davesFirst = await started(as(dave), drop);
    await started(as(dave), drop);
    await unchanged(async () => {
      const refused = await start(as(dave), drop);
      expect([refused.status, refused.body.message]).toEqual([402, UPLOADER_CAP_MESSAGE]);
      expect((await start(as(dave), drop, otherLink)).status).toBe(402);
    });
    // Ending one makes room again.
    expect((await as(dave).delete(`/api/upload/${davesFirst.uploadId}`)).status).toBe(204);
    await started(as(dave), drop);
    // The owner's own uploads are bounded by her quota only.
    for (let i = 0; i < 3; i++) await started(as(alice), drop);
    expect((await alice.browser.call('DELETE', `/api/file/${drop.id}`)).status).toBe(204);
    await exactSpace();
  });

  test('an anonymous link holder is recorded as such, never as the owner; rows of older builds read as they were written', async () => {
    const drop = await folder();
    const linkId = await makeLink(alice, drop, { edit: true });
    const made = await folderMeta(drop.key, drop.id, 'by a visitor');
    h.delivered.length = 0;
    await create({ browser: anonymous(h) }, made, `?linkId=${linkId}`);
    const byCarol = await folderMeta(drop.key, drop.id, 'by carol');
    await create(carol, byCarol, `?linkId=${linkId}`);
    const listing = (await alice.browser.get(`/api/file?id=${drop.id}`)).body;
    const uploaderOf = (id: string) => listing.files.find((f: { id: string }) => f.id === id).uploaderId;
    expect([uploaderOf(made.id), uploaderOf(byCarol.id)]).toEqual([null, carol.id]);
    expect(listing.users.map((u: { id: string }) => u.id).sort()).toEqual([alice.id, carol.id].sort());
    // Events name the owner, never a null user.
    expect(h.delivered.find((e) => e.kind === 'item.created' && e.itemId === made.id)?.userIds).toEqual([alice.id]);
    // Older builds read uploader_id as a user: the owner's id stands there, the flag says who.
    const row = (id: string) =>
      h.db.kysely
        .selectFrom('items')
        .select(['uploader_id', 'uploader_anonymous'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
    expect(await row(made.id)).toEqual({ uploader_id: alice.id, uploader_anonymous: 1 });
    expect(await row(byCarol.id)).toEqual({ uploader_id: carol.id, uploader_anonymous: 0 });
    // A row an older build wrote does not say: it shows whom that build recorded.
    await h.db.kysely.updateTable('items').set({ uploader_anonymous: null }).where('id', '=', made.id).execute();
    const again = (await alice.browser.get(`/api/file?id=${drop.id}`)).body;
    expect(again.files.find((f: { id: string }) => f.id === made.id).uploaderId).toBe(alice.id);
  });

  test('each address has its own creation limit on a link, so one holder cannot lock the others out', async () => {
    const limited = h.makeApp({ rateLimits: { ...UNLIMITED, createItemAccount: { max: 3, windowMs: HOUR } } });
    const drop = await folder();
    const linkId = await makeLink(alice, drop, { edit: true });
    const make = async (browser: Browser) =>
      (await postUpload(browser, (await folderMeta(drop.key, drop.id)).meta, undefined, withLink('/api/upload', linkId))).status;
    const abuser = new Browser(limited, { ip: '198.51.100.30' });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push(await make(abuser));
    expect(statuses).toEqual([201, 201, 201, 429]);
    expect(await make(new Browser(limited, { ip: '198.51.100.31' }))).toBe(201);
    // An IPv6 holder counts by its /64: another address in it is the same holder.
    const v6 = (n: number) => new Browser(limited, { ip: `2001:db8:1:2::${n}` });
    for (let i = 0; i < 3; i++) expect(await make(v6(i + 1))).toBe(201);
    expect(await make(v6(9))).toBe(429);
  });
}
