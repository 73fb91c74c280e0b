import { beforeAll, describe, expect, test } from 'bun:test';
import { DEFAULT_RATE_LIMITS, UNLIMITED } from '../../src/domain/accounts/rate-limits.ts';
import { Browser } from '../accounts/harness.ts';
import type { FilesHarness, Made } from '../files/harness.ts';
import { HOUR, type SharingSuite } from './context.ts';
import { anonymous, makeLink, withLink, type KeyedUser } from './harness.ts';

/**
 * The owner's link calls (docs/protocol.md "Share links"): their refusals, link ids, and the
 * limits on guessing a link's password.
 */
export function linkCallTests(suite: SharingSuite) {
  let h: FilesHarness, alice: KeyedUser, bob: KeyedUser, F: Made, G: Made;
  beforeAll(() => {
    ({ h, alice, bob, F, G } = suite);
  });
  const { unchanged, delivered } = suite;

  describe('links', () => {
    test('link calls: bad input 400, only the owner manages links, deleting one ends it', async () => {
      const linkId = await makeLink(alice, F);
      await unchanged(async () => {
        for (const body of [
          { type: 'link', id: F.id, expires: -1, edit: false },
          { type: 'link', id: F.id, expires: 1.5, edit: false },
          { type: 'link', id: F.id, expires: 3_155_760_001, edit: false },
          { type: 'link', id: F.id, expires: 0 },
          { type: 'link', id: F.id, expires: 0, edit: false, password: '' },
          { type: 'link', id: F.id, expires: 0, edit: false, password: '   ' },
          { type: 'link', id: F.id, expires: 0, edit: false, password: 'x'.repeat(1025) },
          { type: 'link', id: 'nope', expires: 0, edit: false },
        ]) {
          expect([(await alice.browser.post('/api/share', body)).status, body]).toEqual([400, body]);
        }
        for (const body of [
          { type: 'link', linkId },
          { type: 'link', linkId: 'short', edit: true },
          { type: 'link', linkId, edit: 'no' },
          { type: 'link', linkId, password: '' },
          { type: 'link', linkId, password: 12 },
        ]) {
          expect([(await alice.browser.put('/api/share', body)).status, body]).toEqual([400, body]);
        }
        expect((await alice.browser.put('/api/share', { type: 'link', linkId: `${'B'.repeat(21)}A`, edit: true })).status).toBe(
          404,
        );
        expect((await bob.browser.post('/api/share', { type: 'link', id: G.id, expires: 0, edit: true })).status).toBe(404);
        expect((await bob.browser.put('/api/share', { type: 'link', linkId, edit: true })).status).toBe(404);
        expect((await bob.browser.call('DELETE', '/api/shared', { json: { type: 'link', linkId } })).status).toBe(404);
        expect((await bob.browser.get(`/api/shared/${F.id}/links`)).status).toBe(404);
        expect((await anonymous(h).put('/api/share', { type: 'link', linkId, edit: true })).status).toBe(401);
      });
      const links = (await alice.browser.get(`/api/shared/${F.id}/links`)).body;
      expect(links.map((l: { linkId: string }) => l.linkId)).toContain(linkId);
      h.delivered.length = 0;
      expect((await alice.browser.call('DELETE', '/api/shared', { json: { type: 'link', linkId } })).status).toBe(204);
      expect(await delivered({ kind: 'link.deleted' })).toEqual([
        { kind: 'link.deleted', itemId: F.id, userIds: [alice.id], linkIds: [linkId] },
      ]);
      expect((await anonymous(h).get(`/api/shared/${linkId}`)).status).toBe(404);
      expect((await anonymous(h).get(withLink('/api/file', linkId))).status).toBe(404);
      expect((await alice.browser.call('DELETE', '/api/shared', { json: { type: 'link', linkId } })).status).toBe(404);
    });

    test('link ids are 128 random bits, never reused', async () => {
      const seen = new Set<string>();
      for (let i = 0; i < 20; i++) seen.add(await makeLink(alice, G));
      expect(seen.size).toBe(20);
      for (const id of seen) expect(Buffer.from(id, 'base64url')).toHaveLength(16);
    });

    test('password guessing hits 429 per link and address; the right password from elsewhere still works', async () => {
      const app = h.makeApp({
        rateLimits: {
          ...UNLIMITED,
          linkPasswordLinkIp: DEFAULT_RATE_LIMITS.linkPasswordLinkIp,
          linkPasswordIp: { max: 15, windowMs: HOUR },
        },
      });
      const linkId = await makeLink(alice, F, { password: 'hunter22' });
      const guesser = new Browser(app, { ip: '192.0.2.50' });
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) statuses.push((await guesser.post(`/api/shared/${linkId}`, { password: `guess${i}` })).status);
      expect(statuses).toEqual([...Array(10).fill(401), 429, 429]);
      const refused = await guesser.post(`/api/shared/${linkId}`, { password: 'hunter22' });
      expect(refused.status).toBe(429);
      expect(Number(refused.response.headers.get('retry-after'))).toBeGreaterThan(0);
      const visitor = new Browser(app, { ip: '192.0.2.99' });
      expect((await visitor.post(`/api/shared/${linkId}`, { password: 'hunter22' })).status).toBe(200);
      // One address trying many links is held by the per-address limit.
      const sprayer = new Browser(app, { ip: '192.0.2.77' });
      const sprayed: number[] = [];
      for (let i = 0; i < 16; i++)
        sprayed.push((await sprayer.post(`/api/shared/${'C'.repeat(21)}${'AQgw'[i % 4]}`, { password: 'x' })).status);
      expect(sprayed.slice(0, 15)).toEqual(Array(15).fill(404));
      expect(sprayed[15]).toBe(429);
    });
  });
}
