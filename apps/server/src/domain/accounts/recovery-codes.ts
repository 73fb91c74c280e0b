import { createHash } from 'node:crypto';
import { RECOVERY_CODE_COUNT, RECOVERY_CODE_LENGTH, normaliseRecoveryCode, recoveryCodeFromBytes } from '@sealbox/rules';
import type { UserChanges } from '../../ports/accounts.ts';
import type { SealboxEvent } from '../../ports/event-bus.ts';
import type { AccountsDeps } from './deps.ts';

/**
 * TOTP recovery codes (docs/protocol.md "TOTP recovery codes"): ten random codes of 50 bits each,
 * shown once and stored only as SHA-256 of the user id and the code. A slow hash would add
 * nothing: nobody guesses 50 bits, and guesses online are held by the TOTP limit (`totpAccount`).
 */

/** RECOVERY_CODE_COUNT distinct new codes, as shown (`xxxxx-xxxxx`). */
export function newRecoveryCodes(): string[] {
  const codes = new Set<string>();
  while (codes.size < RECOVERY_CODE_COUNT) {
    codes.add(recoveryCodeFromBytes(crypto.getRandomValues(new Uint8Array(RECOVERY_CODE_LENGTH))));
  }
  return [...codes];
}

/** What is stored of a code: the user id ties it to one account, so equal codes of two accounts differ. */
export function recoveryCodeHash(userId: string, code: string): string {
  return createHash('sha256')
    .update(`${userId}:${normaliseRecoveryCode(code)}`)
    .digest('hex');
}

/** New codes for the account, replacing any it had (they stop working); answers them, the only time they are seen. */
export async function makeRecoveryCodes(deps: AccountsDeps, userId: string, event?: SealboxEvent): Promise<string[]> {
  const codes = newRecoveryCodes();
  const hashes = codes.map((code) => recoveryCodeHash(userId, code));
  await deps.totpRecoveryCodes.replace(userId, hashes, deps.clock(), event);
  return codes;
}

/**
 * Uses up one code of the account and applies `changes`, atomically: true when this call used it.
 * No rate limit here: callers go through totp.ts `acceptCode`, which counts the attempt.
 */
export function consumeRecoveryCode(
  deps: AccountsDeps,
  userId: string,
  code: string,
  changes?: UserChanges,
  event?: SealboxEvent,
): Promise<boolean> {
  return deps.totpRecoveryCodes.consume(userId, recoveryCodeHash(userId, code), changes, event);
}

/** GET /api/totp: how many unused codes the account has. */
export async function totpStatus(deps: AccountsDeps, userId: string): Promise<{ recoveryCodesLeft: number }> {
  return { recoveryCodesLeft: await deps.totpRecoveryCodes.count(userId) };
}
