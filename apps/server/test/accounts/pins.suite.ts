import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { PINS_CHANGED, PINS_MAX_SEALED_BYTES } from '../../src/domain/accounts/pins.ts';
import { openHarness, registrationMaterial, signedInUser, type Browser, type Harness, type MakeDb } from './harness.ts';

const b64 = (bytes: number, fill = 7) => Buffer.from(new Uint8Array(bytes).fill(fill)).toString('base64');
const NONCE = b64(12, 1);

/** docs/protocol.md "Key pins": GET and PUT /api/profile/pins against one database. */
export function pinsSuite(dialect: string, makeDb: MakeDb): void {
  describe(`Key pins API: ${dialect}`, () => {
    let h: Harness;

    beforeAll(async () => {
      await registrationMaterial();
      h = await openHarness(makeDb);
    }, 60_000);
    afterAll(async () => {
      await h?.cleanup();
    });

    const pinsOf = (browser: Browser) => browser.get('/api/profile/pins');

    async function expectRefused(result: Promise<{ status: number; body: any }>, status: number, error: string) {
      const { status: actual, body } = await result;
      expect({ status: actual, error: body?.error }).toEqual({ status, error });
      expect(Object.keys(body).sort()).toEqual(['error', 'message']);
      return body as { error: string; message: string };
    }

    test('nothing stored yet: 200 { sealed: null, nonce: null, version: 0 }', async () => {
      const { browser } = await signedInUser(h);
      const { status, body } = await pinsOf(browser);
      expect(status).toBe(200);
      expect(body).toEqual({ sealed: null, nonce: null, version: 0 });
    });

    test('round trip: each write names the version it read and gets the next one back', async () => {
      const { browser } = await signedInUser(h);
      const first = await browser.put('/api/profile/pins', { sealed: b64(40), nonce: NONCE, version: 0 });
      expect(first).toMatchObject({ status: 200, body: { version: 1 } });
      expect((await pinsOf(browser)).body).toEqual({ sealed: b64(40), nonce: NONCE, version: 1 });

      const nonce2 = b64(12, 2);
      const second = await browser.put('/api/profile/pins', { sealed: b64(90, 3), nonce: nonce2, version: 1 });
      expect(second).toMatchObject({ status: 200, body: { version: 2 } });
      expect((await pinsOf(browser)).body).toEqual({ sealed: b64(90, 3), nonce: nonce2, version: 2 });
    });

    test('the largest blob is accepted', async () => {
      const { browser } = await signedInUser(h);
      const sealed = b64(PINS_MAX_SEALED_BYTES);
      expect((await browser.put('/api/profile/pins', { sealed, nonce: NONCE, version: 0 })).status).toBe(200);
      expect((await pinsOf(browser)).body.sealed).toBe(sealed);
    });

    test('a stale version is 409 with nothing changed, both for the first write and later ones', async () => {
      const { browser } = await signedInUser(h);
      await browser.put('/api/profile/pins', { sealed: b64(40), nonce: NONCE, version: 0 });
      const stored = (await pinsOf(browser)).body;
      for (const version of [0, 2, 7]) {
        const body = await expectRefused(
          browser.put('/api/profile/pins', { sealed: b64(50, 9), nonce: b64(12, 9), version }),
          409,
          'CONFLICT',
        );
        expect(body.message).toBe(PINS_CHANGED);
      }
      expect((await pinsOf(browser)).body).toEqual(stored);

      const fresh = await signedInUser(h);
      await expectRefused(fresh.browser.put('/api/profile/pins', { sealed: b64(40), nonce: NONCE, version: 1 }), 409, 'CONFLICT');
      expect((await pinsOf(fresh.browser)).body).toEqual({ sealed: null, nonce: null, version: 0 });
    });

    test.each([0, 1])('two devices writing on top of version %i at once: exactly one wins', async (base) => {
      const { browser, username, password } = await signedInUser(h);
      if (base === 1) await browser.put('/api/profile/pins', { sealed: b64(10), nonce: NONCE, version: 0 });
      const phone = h.browser({ userAgent: 'phone' });
      expect((await phone.post('/api/login', { username, password })).status).toBe(200);

      const writes = [browser, phone, browser, phone].map((device, i) =>
        device.put('/api/profile/pins', { sealed: b64(30 + i, i + 1), nonce: b64(12, i + 1), version: base }),
      );
      const results = await Promise.all(writes);
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 409, 409, 409]);
      const winner = results.findIndex((r) => r.status === 200);
      expect(results[winner]!.body).toEqual({ version: base + 1 });
      expect((await pinsOf(phone)).body).toEqual({
        sealed: b64(30 + winner, winner + 1),
        nonce: b64(12, winner + 1),
        version: base + 1,
      });
    });

    describe('bad writes are refused and change nothing', () => {
      const good = { sealed: b64(40), nonce: NONCE, version: 1 };
      test.each<[string, Record<string, unknown>, number, string]>([
        ['sealed not base64', { ...good, sealed: 'not base64!' }, 400, 'VALIDATION'],
        ['sealed unpadded', { ...good, sealed: b64(40).replace(/=+$/, '') }, 400, 'VALIDATION'],
        [
          'sealed base64url',
          { ...good, sealed: Buffer.from(new Uint8Array(30).fill(0xfb)).toString('base64url') },
          400,
          'VALIDATION',
        ],
        ['sealed non-canonical', { ...good, sealed: 'AB==' }, 400, 'VALIDATION'],
        ['sealed empty', { ...good, sealed: '' }, 400, 'VALIDATION'],
        ['sealed not a string', { ...good, sealed: 5 }, 400, 'VALIDATION'],
        ['sealed missing', { nonce: NONCE, version: 1 }, 400, 'VALIDATION'],
        ['sealed one byte too many', { ...good, sealed: b64(PINS_MAX_SEALED_BYTES + 1) }, 413, 'TOO_LARGE'],
        ['sealed far too large', { ...good, sealed: b64(PINS_MAX_SEALED_BYTES * 2) }, 413, 'TOO_LARGE'],
        ['nonce 11 bytes', { ...good, nonce: b64(11) }, 400, 'VALIDATION'],
        ['nonce 13 bytes', { ...good, nonce: b64(13) }, 400, 'VALIDATION'],
        ['nonce not base64', { ...good, nonce: '????????????????' }, 400, 'VALIDATION'],
        ['nonce null', { ...good, nonce: null }, 400, 'VALIDATION'],
        ['version negative', { ...good, version: -1 }, 400, 'VALIDATION'],
        ['version fractional', { ...good, version: 1.5 }, 400, 'VALIDATION'],
        ['version a string', { ...good, version: '1' }, 400, 'VALIDATION'],
        ['version unsafe', { ...good, version: 2 ** 60 }, 400, 'VALIDATION'],
        ['version missing', { sealed: good.sealed, nonce: NONCE }, 400, 'VALIDATION'],
        ['an extra key', { ...good, userId: 'someone-else' }, 400, 'VALIDATION'],
      ])('%s', async (_name, body, status, error) => {
        const { browser } = await signedInUser(h);
        await browser.put('/api/profile/pins', { sealed: b64(20), nonce: NONCE, version: 0 });
        const before = (await pinsOf(browser)).body;
        await expectRefused(browser.put('/api/profile/pins', body), status, error);
        expect((await pinsOf(browser)).body).toEqual(before);
      });

      test('an array or a bare value is no body', async () => {
        const { browser } = await signedInUser(h);
        await expectRefused(browser.put('/api/profile/pins', [good]), 400, 'VALIDATION');
        await expectRefused(browser.put('/api/profile/pins', 'x'), 400, 'VALIDATION');
        expect((await pinsOf(browser)).body.version).toBe(0);
      });
    });

    test('without a session: 401 for both calls, before the body is looked at', async () => {
      const anonymous = h.browser();
      await expectRefused(anonymous.get('/api/profile/pins'), 401, 'UNAUTHORIZED');
      await expectRefused(anonymous.put('/api/profile/pins', { sealed: b64(40), nonce: NONCE, version: 0 }), 401, 'UNAUTHORIZED');
      await expectRefused(anonymous.put('/api/profile/pins', { bogus: true }), 401, 'UNAUTHORIZED');
    });

    test('a user sees and writes only their own pins', async () => {
      const alice = await signedInUser(h);
      const bob = await signedInUser(h);
      await alice.browser.put('/api/profile/pins', { sealed: b64(40, 0xaa), nonce: NONCE, version: 0 });
      expect((await pinsOf(bob.browser)).body).toEqual({ sealed: null, nonce: null, version: 0 });
      // Bob's first write is his own version 1, not a conflict with Alice's.
      expect((await bob.browser.put('/api/profile/pins', { sealed: b64(40, 0xbb), nonce: NONCE, version: 0 })).body).toEqual({
        version: 1,
      });
      expect((await pinsOf(alice.browser)).body.sealed).toBe(b64(40, 0xaa));
      expect((await pinsOf(bob.browser)).body.sealed).toBe(b64(40, 0xbb));
    });
  });
}
