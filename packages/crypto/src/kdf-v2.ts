import { type Argon2idParams, argon2idBits } from './argon2.ts';
import { type Bytes, fromBase64, toBase64, utf8 } from './bytes.ts';
import { fail } from './errors.ts';

/**
 * Version 2 of the password keys (docs/protocol.md, vectors v2 `passwordKeysV2`): one argon2id with
 * real memory makes a master secret, and HKDF splits it into the login secret the server verifies
 * and the key that wraps the account's secrets, so neither reveals the other. Accounts move to it
 * at their next login (docs/protocol.md); this module only derives.
 */
export interface KdfParamsV2 {
  version: 2;
  argon2id: Argon2idParams;
}

export const KDF_V2: KdfParamsV2 = Object.freeze({
  version: 2,
  argon2id: Object.freeze({ iterations: 3, memoryKiB: 64 * 1024, parallelism: 1, hashLength: 32 }),
});

/**
 * Below OWASP's floor for argon2id (19 MiB, 2 passes) a hostile server could make guessing cheap;
 * above these a hostile server could make every sign-in take minutes or exhaust memory.
 */
const MIN = { iterations: 2, memoryKiB: 19 * 1024 };
const MAX = { iterations: 10, memoryKiB: 256 * 1024, parallelism: 4 };

const SALT_BYTES = 16;

function within(value: unknown, min: number, max: number, name: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) fail('BAD_INPUT', `${name} is invalid`);
  if ((value as number) < min) fail('KDF_TOO_WEAK', `${name} ${value} is below the minimum ${min}`);
  if ((value as number) > max) fail('BAD_INPUT', `${name} ${value} is above the maximum ${max}`);
  return value as number;
}

/** Validates untrusted version-2 parameters (for example from the server) and returns a clean copy. */
export function checkKdfParamsV2(input: unknown): KdfParamsV2 {
  const p = input as Partial<KdfParamsV2> | null;
  const a = p?.argon2id;
  if (!p || typeof p !== 'object' || p.version !== 2 || !a || typeof a !== 'object')
    fail('BAD_INPUT', 'not version-2 KDF parameters');
  return {
    version: 2,
    argon2id: {
      iterations: within(a!.iterations, MIN.iterations, MAX.iterations, 'argon2id.iterations'),
      memoryKiB: within(a!.memoryKiB, MIN.memoryKiB, MAX.memoryKiB, 'argon2id.memoryKiB'),
      parallelism: within(a!.parallelism, 1, MAX.parallelism, 'argon2id.parallelism'),
      hashLength: within(a!.hashLength, 32, 32, 'argon2id.hashLength'),
    },
  };
}

/** HKDF-SHA256 with an empty salt, 32 bytes out: the split used by version 2 and the recovery phrase. */
export async function hkdf(master: Bytes, info: string): Promise<Bytes> {
  const base = await crypto.subtle.importKey('raw', master, 'HKDF', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits(
    { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: utf8(info) },
    base,
    256,
  );
  return new Uint8Array(bits);
}

/** The login password the server sees, and the raw bits of the wrapping key (zero them after import). */
export async function derivePasswordKeysV2(
  password: string,
  passwordSalt: string,
  params: unknown,
): Promise<{ loginPassword: string; wrappingKeyBits: Bytes }> {
  const p = checkKdfParamsV2(params);
  const salt = fromBase64(passwordSalt, 'passwordSalt');
  if (salt.length !== SALT_BYTES) fail('BAD_INPUT', `passwordSalt must be ${SALT_BYTES} bytes`);
  if (typeof password !== 'string' || password.length === 0) fail('BAD_INPUT', 'password is required');
  // NFC: the same password typed on another keyboard (composed or decomposed) opens the account.
  const master = await argon2idBits(utf8(password.normalize('NFC')), salt, p.argon2id);
  try {
    const login = await hkdf(master, 'sealbox:v2:login');
    return { loginPassword: toBase64(login), wrappingKeyBits: await hkdf(master, 'sealbox:v2:wrap') };
  } finally {
    master.fill(0);
  }
}
