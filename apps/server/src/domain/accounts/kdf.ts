import { DomainError } from '../errors.ts';

/**
 * docs/protocol.md "Account": KDF parameters are stored per account with a version. The server
 * refuses any below the minimum or above the ceiling, as the client does, so a weak account can
 * never be created through it, nor one whose sign-in would take minutes.
 *
 * Version 1 (the first release's): argon2id for the login hash, PBKDF2 for the wrapping key.
 * Version 2: one argon2id whose output HKDF splits into both; it has no `pbkdf2`.
 */
export interface KdfParamsV1 {
  version: 1;
  argon2id: { iterations: number; memoryKiB: number; parallelism: number; hashLength: number };
  pbkdf2: { iterations: number };
}

export interface KdfParamsV2 {
  version: 2;
  argon2id: { iterations: number; memoryKiB: number; parallelism: number; hashLength: number };
}

export type KdfParams = KdfParamsV1 | KdfParamsV2;

/** What arrives in a request body, before checking (Elysia's schema has the shape, not the rules). */
export interface KdfInput {
  version: number;
  argon2id: { iterations: number; memoryKiB: number; parallelism: number; hashLength: number };
  pbkdf2?: { iterations: number } | undefined;
}

export const KDF_MINIMUM: KdfParamsV1 = Object.freeze({
  version: 1,
  argon2id: Object.freeze({ iterations: 256, memoryKiB: 512, parallelism: 1, hashLength: 32 }),
  pbkdf2: Object.freeze({ iterations: 120_000 }),
});

/** Version 2's floor: OWASP's argon2id minimum (19 MiB, 2 passes). */
export const KDF_V2_MINIMUM: KdfParamsV2 = Object.freeze({
  version: 2,
  argon2id: Object.freeze({ iterations: 2, memoryKiB: 19 * 1024, parallelism: 1, hashLength: 32 }),
});

/** The same ceilings as packages/crypto's (kdf.ts and kdf-v2.ts). */
const V1_LIMITS = { iterations: 4096, memoryKiB: 256 * 1024, parallelism: 16, hashLength: 64, pbkdf2: 2_000_000 };
const V2_LIMITS = { iterations: 10, memoryKiB: 256 * 1024, parallelism: 4, hashLength: 32 };
/** argon2id memory x passes, in KiB: a few seconds of wasm at most. */
const MAX_WORK = 10 * 256 * 1024;

function checkRules(rules: Array<[string, number, number, number]>): void {
  for (const [field, value, min, max] of rules) {
    if (!Number.isSafeInteger(value)) throw new DomainError('VALIDATION', `${field} must be a whole number`);
    if (value < min) throw new DomainError('VALIDATION', `${field} is below the minimum ${min}`);
    if (value > max) throw new DomainError('VALIDATION', `${field} is above the maximum ${max}`);
  }
}

function checkArgon2id(kdf: KdfInput, min: KdfParams['argon2id'], max: typeof V2_LIMITS): KdfParams['argon2id'] {
  const a = kdf.argon2id;
  checkRules([
    ['kdf.argon2id.iterations', a.iterations, min.iterations, max.iterations],
    ['kdf.argon2id.memoryKiB', a.memoryKiB, min.memoryKiB, max.memoryKiB],
    ['kdf.argon2id.parallelism', a.parallelism, min.parallelism, max.parallelism],
    ['kdf.argon2id.hashLength', a.hashLength, min.hashLength, max.hashLength],
  ]);
  if (a.iterations * a.memoryKiB > MAX_WORK) {
    throw new DomainError('VALIDATION', 'kdf.argon2id memory x iterations is above the maximum');
  }
  // A clean copy: nothing but the known fields is stored and handed to other clients.
  return { iterations: a.iterations, memoryKiB: a.memoryKiB, parallelism: a.parallelism, hashLength: a.hashLength };
}

export function checkKdf(kdf: KdfInput): KdfParams {
  checkRules([['kdf.version', kdf.version, KDF_MINIMUM.version, 2]]);
  if (kdf.version === 2) {
    if (kdf.pbkdf2 !== undefined) throw new DomainError('VALIDATION', 'kdf.pbkdf2 is not part of version 2');
    return { version: 2, argon2id: checkArgon2id(kdf, KDF_V2_MINIMUM.argon2id, V2_LIMITS) };
  }
  if (kdf.pbkdf2 === undefined) throw new DomainError('VALIDATION', 'kdf.pbkdf2 is required in version 1');
  const argon2id = checkArgon2id(kdf, KDF_MINIMUM.argon2id, V1_LIMITS);
  checkRules([['kdf.pbkdf2.iterations', kdf.pbkdf2.iterations, KDF_MINIMUM.pbkdf2.iterations, V1_LIMITS.pbkdf2]]);
  return { version: 1, argon2id, pbkdf2: { iterations: kdf.pbkdf2.iterations } };
}

export function parseStoredKdf(text: string): KdfParams {
  return JSON.parse(text) as KdfParams;
}
