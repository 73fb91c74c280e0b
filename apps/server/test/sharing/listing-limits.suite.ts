import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { toBase64 } from '@sealbox/crypto';
import { DEFAULT_RATE_LIMITS, UNLIMITED, type RateLimits } from '../../src/domain/accounts/rate-limits.ts';
import { SHARED_PAGE_MAX } from '../../src/domain/files/index.ts';
import { NEXT_OFFSET_HEADER } from '../../src/http/routes/sharing.ts';
import { Browser } from '../accounts/harness.ts';
import {
  openFilesHarness,
  postFolder,
  seedTree,
  serveOverHttp,
  signedInUser,
  type FilesHarness,
  type MakeFilesEnv,
  type User,
} from '../files/harness.ts';
import { median, timed } from '../support/timing.ts';
import { makeLink, withLink } from './harness.ts';

const MINUTE = 60_000;
const ALL = 2_147_483_648;

/** A top-level folder of `user`'s, made through the API, with `shape` seeded below it (seedTree). */
async function tree(h: FilesHarness, user: User, shape: number[]) {
  const root = await postFolder(user, null, 'tree');
  return { root, ...(await seedTree(h, user.id, root.id, shape)) };
}

/**
 * Access entries for `recipient` on these items, as the owner's shares would leave them (the
 * server never checks a grant's signature, so any base64 of the right size stands in).
 */
async function seedShares(h: FilesHarness, ownerId: string, recipientId: string, itemIds: readonly string[]) {
  const encryptedKey = toBase64(new Uint8Array(512).fill(7));
  const signature = toBase64(new Uint8Array(64).fill(9));
  const rows = itemIds.map((itemId, i) => ({
    item_id: itemId,
    user_id: recipientId,
    encrypted_key: encryptedKey,
    signature,
    edit_permission: 0 as const,
    sharer_id: ownerId,
    created_at: h.clock.now + i,
  }));
  for (let i = 0; i < rows.length; i += 500)
    await h.db.kysely
      .insertInto('accesses')
      .values(rows.slice(i, i + 500))
      .execute();
}

/** Every page of GET /api/shared, following `nextOffset` (and checking the header says the same). */
async function walkShared(browser: Browser, limit = SHARED_PAGE_MAX) {
  const ids: string[] = [];
  const pages: number[] = [];
  for (let offset: number | null = 0; offset !== null; ) {
    const page = await browser.get(`/api/shared?limit=${limit}&offset=${offset}`);
    expect(page.status).toBe(200);
    const next = page.body.nextOffset as number | null;
    expect(page.response.headers.get(NEXT_OFFSET_HEADER)).toBe(next === null ? null : String(next));
    ids.push(...page.body.files.map((file: { id: string }) => file.id));
    pages.push(page.body.files.length);
    offset = next;
  }
  return { ids, pages };
}

/**
 * What keeps one caller's listings from holding the server (issue 21, docs/protocol.md threat
 * table "Request amplification"): GET /api/shared is read a page at a time with a few queries
 * per page, and both listings are weighed by the items they read. Timings are ratios against a
 * baseline of the same test (test/support/timing.ts); absolute figures are in bench/sharing.
 */
export function listingLimitsSuite(name: string, makeEnv: MakeFilesEnv) {
  describe(`listing limits: ${name}`, () => {
    let h: FilesHarness;

    beforeAll(async () => {
      h = await openFilesHarness(makeEnv);
    });
    afterAll(async () => {
      await h?.cleanup();
    });

    const limited = (limits: Partial<RateLimits>) => h.makeApp({ rateLimits: { ...UNLIMITED, ...limits } });

    test("10,000 shared entries are listed page by page while another user's calls stay fast", async () => {
      const owner = await signedInUser(h);
      const recipient = await signedInUser(h);
      const other = await signedInUser(h);
      // 10 x 10 x 10 folders, 10 files in each of the last: every shared file 5 levels deep.
      const shared = await tree(h, owner, [10, 10, 10, 10]);
      const leaves = shared.ids.slice(-10_000);
      await seedShares(h, owner.id, recipient.id, leaves);
      const busy = await tree(h, other, [20]);

      const served = serveOverHttp(h);
      try {
        const recipientHttp = served.browserOf(recipient);
        const otherHttp = served.browserOf(other);
        const otherCall = async () => expect((await otherHttp.get(`/api/file?id=${busy.root.id}`)).status).toBe(200);
        const idle: number[] = [];
        for (let i = 0; i < 30; i++) idle.push(await timed(otherCall));

        const during: number[] = [];
        let walking = true;
        const poll = (async () => {
          while (walking) during.push(await timed(otherCall));
        })();
        let walked: Awaited<ReturnType<typeof walkShared>>;
        try {
          walked = await walkShared(recipientHttp, 10_000);
        } finally {
          walking = false;
          await poll;
        }
        // Asked for 10,000 at a time, served SHARED_PAGE_MAX at a time: every entry, once, in order.
        expect(walked.ids).toEqual(leaves);
        expect(walked.pages).toEqual(Array(10).fill(SHARED_PAGE_MAX).concat(0));
        expect(during.length).toBeGreaterThan(5);
        const ratio = median(during) / median(idle);
        console.log(
          `[listing limits] other user's call: idle median ${median(idle).toFixed(1)} ms, during the walk median ${median(during).toFixed(1)} ms (x${ratio.toFixed(1)}), max ${Math.max(...during).toFixed(1)} ms over ${during.length}`,
        );
        expect(ratio).toBeLessThan(20);
      } finally {
        await served.stop();
      }
    }, 120_000);

    test('GET /api/shared: 429 with Retry-After once the entries read in the window pass the limit; others unaffected', async () => {
      const app = limited({ sharedEntriesAccount: { max: 250, windowMs: MINUTE } });
      const owner = await signedInUser(h, app);
      const recipient = await signedInUser(h, app);
      const other = await signedInUser(h, app);
      const shared = await tree(h, owner, [100]);
      await seedShares(h, owner.id, recipient.id, shared.ids);
      // Each call counts one, then the entries it read: 101, 202, then 303 (past 250, but it ran).
      for (let i = 0; i < 3; i++) expect((await recipient.browser.get('/api/shared')).body.files.length).toBe(100);
      const refused = await recipient.browser.get('/api/shared');
      expect([refused.status, refused.body.error]).toEqual([429, 'RATE_LIMITED']);
      expect(Number(refused.response.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await other.browser.get('/api/shared')).status).toBe(200);
      h.clock.advance(MINUTE);
      expect((await recipient.browser.get('/api/shared')).status).toBe(200);
    });

    test('GET /api/file: deep and huge listings are weighed by the items read, per user and per link and address', async () => {
      const app = limited({ listedItemsActor: { max: 300, windowMs: MINUTE } });
      const owner = await signedInUser(h, app);
      const other = await signedInUser(h, app);
      const { root } = await tree(h, owner, [10, 10]);
      const deep = `/api/file?id=${root.id}&depth=20&limit=${ALL}`;
      // 1 for the call and 110 items read each: 111, 222, 333 (the third runs, the fourth is refused).
      for (let i = 0; i < 3; i++) expect((await owner.browser.get(deep)).body.files.length).toBe(110);
      const refused = await owner.browser.get(deep);
      expect([refused.status, refused.body.error]).toEqual([429, 'RATE_LIMITED']);
      expect(Number(refused.response.headers.get('retry-after'))).toBeGreaterThan(0);
      // Every listing of theirs waits for the window's end; other users list as before.
      expect((await owner.browser.get('/api/file')).status).toBe(429);
      expect((await other.browser.get('/api/file')).status).toBe(200);

      // A link holder is counted apart from the owner, and the same way.
      const linkId = await makeLink(owner, root);
      const visitor = new Browser(app, { ip: '198.51.100.20' });
      for (let i = 0; i < 3; i++) expect((await visitor.get(withLink(deep, linkId))).status).toBe(200);
      expect((await visitor.get(withLink(deep, linkId))).status).toBe(429);
      // Counted per address: another holder of the same link lists on.
      expect((await new Browser(app, { ip: '198.51.100.21' }).get(withLink(deep, linkId))).status).toBe(200);
      h.clock.advance(MINUTE);
      expect((await owner.browser.get(deep)).status).toBe(200);
      expect((await visitor.get(withLink(deep, linkId))).status).toBe(200);
    });

    test("the default limits leave room for the web app's own use", () => {
      // The 5 s refresh while the socket is down, of a folder of 10,000 items and of 10,000 shares.
      const refreshes = (limit: { windowMs: number }) => limit.windowMs / 5000;
      const { listedItemsActor, sharedEntriesAccount } = DEFAULT_RATE_LIMITS;
      expect(listedItemsActor.max).toBeGreaterThan(refreshes(listedItemsActor) * 10_001);
      // A folder download of 90,000 items in one folder: 90 pages of 1,000, each reading the level.
      expect(listedItemsActor.max).toBeGreaterThan(90 * 90_001);
      expect(sharedEntriesAccount.max).toBeGreaterThan(refreshes(sharedEntriesAccount) * 10_001);
    });
  });
}
