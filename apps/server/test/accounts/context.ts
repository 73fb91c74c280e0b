import { afterAll, beforeAll, expect } from 'bun:test';
import { generate } from 'otplib';
import { openHarness, registrationMaterial, type Harness, type MakeDb } from './harness.ts';

export const b64 = (bytes: number) => Buffer.from(new Uint8Array(bytes).fill(7)).toString('base64');

export const PROFILE_KEYS = [
  'avatarExtension',
  'createdAt',
  'email',
  'gridView',
  'id',
  'publicKey',
  'reservedSpace',
  'signingPublicKey',
  'sortBy',
  'sortOrder',
  'totalSpace',
  'totpEnabled',
  'usedSpace',
  'username',
];

/** The reads and checks the parts of the accounts suite make of its harness. */
function checks(suite: { h: Harness }) {
  const userCount = async () =>
    Number(
      (
        await suite.h.db.kysely
          .selectFrom('users')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const userRow = (id: string) =>
    suite.h.db.kysely.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const sessionRows = (userId: string) =>
    suite.h.db.kysely.selectFrom('sessions').selectAll().where('user_id', '=', userId).execute();
  const codeAt = (secret: string, ms: number) => generate({ secret, epoch: Math.floor(ms / 1000) });
  const eventsOf = (userId: string, kind: string) =>
    suite.h.delivered.filter((e) => e.kind === kind && e.userIds.includes(userId));

  async function expectError(
    result: Promise<{ status: number; body: any }>,
    status: number,
    error: string,
    message?: string | RegExp,
  ) {
    const { status: actual, body } = await result;
    expect({ status: actual, error: body?.error }).toEqual({ status, error });
    expect(Object.keys(body).sort()).toEqual(['error', 'message']);
    if (typeof message === 'string') expect(body.message).toBe(message);
    else if (message) expect(body.message).toMatch(message);
  }
  return { userCount, userRow, sessionRows, codeAt, eventsOf, expectError };
}

/**
 * What the parts of the accounts suite (accounts.suite.ts) share: one harness over one
 * database, opened before the first test, and the checks above. The parts run in order.
 */
export type AccountsSuite = { h: Harness } & ReturnType<typeof checks>;

/** Opens the harness before the suite's first test and closes it after its last. */
export function openAccountsSuite(makeDb: MakeDb): AccountsSuite {
  const suite = {} as AccountsSuite;
  Object.assign(suite, checks(suite));
  beforeAll(async () => {
    await registrationMaterial();
    suite.h = await openHarness(makeDb);
  }, 60_000);
  afterAll(async () => {
    await suite.h?.cleanup();
  });
  return suite;
}
