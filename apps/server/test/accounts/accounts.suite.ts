import { describe } from 'bun:test';
import { openAccountsSuite } from './context.ts';
import { guardTests } from './guards.ts';
import type { MakeDb } from './harness.ts';
import { profileTests } from './profile.ts';
import { recoveryCodeTests } from './recovery-codes.ts';
import { registrationTests } from './registration.ts';
import { sessionTests } from './sessions.ts';
import { totpTests } from './totp.ts';

/**
 * Runs the whole accounts API contract (docs/protocol.md "Accounts") against one database. Its
 * parts share one harness (context.ts) and run in this order.
 */
export function accountsSuite(dialect: string, makeDb: MakeDb): void {
  describe(`Accounts API: ${dialect}`, () => {
    const suite = openAccountsSuite(makeDb);
    registrationTests(suite);
    sessionTests(suite);
    profileTests(suite);
    totpTests(suite);
    recoveryCodeTests(suite);
    guardTests(suite);
  });
}
