import { DomainError } from '../errors.ts';

/**
 * docs/protocol.md "Account": KDF parameters are stored per account. The server refuses any
 * below the minimum, as the client does, so a weak account can never be created through it.
 */
export interface KdfParams {
  version: number;
  argon2id: { iterations: number; memoryKiB: number; parallelism: number; hashLength: number };
  pbkdf2: { iterations: number };
}

export const KDF_MINIMUM: KdfParams = Object.freeze({
  version: 1,
  argon2id: Object.freeze({ iterations: 256, memoryKiB: 512, parallelism: 1, hashLength: 32 }),
  pbkdf2: Object.freeze({ iterations: 120_000 }),
});

/** Upper bounds keep a client from being told to spend hours (same as packages/crypto's). */
const LIMITS = { version: 1000, iterations: 1 << 16, memoryKiB: 1 << 22, parallelism: 16, hashLength: 64, pbkdf2: 10_000_000 };

export function checkKdf(kdf: KdfParams): KdfParams {
  const rules: Array<[string, number, number, number]> = [
    ['kdf.version', kdf.version, KDF_MINIMUM.version, LIMITS.version],
    ['kdf.argon2id.iterations', kdf.argon2id.iterations, KDF_MINIMUM.argon2id.iterations, LIMITS.iterations],
    ['kdf.argon2id.memoryKiB', kdf.argon2id.memoryKiB, KDF_MINIMUM.argon2id.memoryKiB, LIMITS.memoryKiB],
    ['kdf.argon2id.parallelism', kdf.argon2id.parallelism, KDF_MINIMUM.argon2id.parallelism, LIMITS.parallelism],
    ['kdf.argon2id.hashLength', kdf.argon2id.hashLength, KDF_MINIMUM.argon2id.hashLength, LIMITS.hashLength],
    ['kdf.pbkdf2.iterations', kdf.pbkdf2.iterations, KDF_MINIMUM.pbkdf2.iterations, LIMITS.pbkdf2],
  ];
  for (const [field, value, min, max] of rules) {
    if (!Number.isSafeInteger(value)) throw new DomainError('VALIDATION', `${field} must be a whole number`);
    if (value < min) throw new DomainError('VALIDATION', `${field} is below the minimum ${min}`);
    if (value > max) throw new DomainError('VALIDATION', `${field} is above the maximum ${max}`);
  }
  // A clean copy: nothing but the known fields is stored and handed to other clients.
  return {
    version: kdf.version,
    argon2id: {
      iterations: kdf.argon2id.iterations,
      memoryKiB: kdf.argon2id.memoryKiB,
      parallelism: kdf.argon2id.parallelism,
      hashLength: kdf.argon2id.hashLength,
    },
    pbkdf2: { iterations: kdf.pbkdf2.iterations },
  };
}

export function parseStoredKdf(text: string): KdfParams {
  return JSON.parse(text) as KdfParams;
}
