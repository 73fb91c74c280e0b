import type { AccountRepositories } from '../../../ports/accounts.ts';
import type { Db } from '../../../ports/db.ts';
import { createKeyPinsRepository } from './key-pins-repository.ts';
import { createRecoveryRepository } from './recovery-repository.ts';
import { createRateLimitCounter } from './rate-limit-counter.ts';
import { createSessionRepository } from './session-repository.ts';
import { createTotpRecoveryCodeRepository } from './totp-recovery-code-repository.ts';
import { createUserRepository } from './user-repository.ts';

/** The accounts domain's storage over either dialect. */
export function createAccountRepositories(db: Db): AccountRepositories {
  return {
    users: createUserRepository(db),
    sessions: createSessionRepository(db),
    rateLimits: createRateLimitCounter(db),
    pins: createKeyPinsRepository(db),
    recovery: createRecoveryRepository(db),
    totpRecoveryCodes: createTotpRecoveryCodeRepository(db),
  };
}
