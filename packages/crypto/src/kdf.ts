import { type Argon2idParams, argon2idBits } from './argon2.ts';
import { type Bytes, fromBase64, own, toBase64, utf8 } from './bytes.ts';
import { fail } from './errors.ts';
import { checkKdfParamsV2, derivePasswordKeysV2, type KdfParamsV2 } from './kdf-v2.ts';

/**
 * Versioned KDF parameters, stored per account by the server. The server is not trusted with
 * them: a client refuses anything below its built-in minimum before touching the password.
 */
export interface KdfParams {
  version: number;
  /** argon2id for the login password the server verifies. */
  argon2id: Argon2idParams;
  /** PBKDF2-SHA256 for the key that unwraps the account's secrets. */
  pbkdf2: { iterations: number };
}

export const KDF_V1: KdfParams = Object.freeze({
  version: 1,
  argon2id: Object.freeze({ iterations: 256, memoryKiB: 512, parallelism: 1, hashLength: 32 }),
  pbkdf2: Object.freeze({ iterations: 120_000 }),
});

/** The weakest parameters this client accepts; raising them is how a future version hardens. */
export const KDF_MINIMUM: KdfParams = KDF_V1;

const SALT_BYTES = 16;
/**
 * Ceilings for what a server may ask of a signing-in browser (docs/protocol.md "Account"): at most
 * 256 MiB of memory and 10 x 256 MiB of argon2id work (memory x passes, a few seconds in wasm),
 * and PBKDF2 at 2,000,000 (about a second). Above these a hostile server could make every
 * sign-in take minutes or exhaust the tab's memory.
 */
const LIMITS = { iterations: 4096, memoryKiB: 256 * 1024, work: 10 * 256 * 1024, parallelism: 16, pbkdf2: 2_000_000 };

/** Either version's parameters, as stored per account and sent by the server. */
export type AccountKdf = KdfParams | KdfParamsV2;

/**
 * Validates untrusted parameters of any version this client knows, dispatching on `version`:
 * below 1 is a downgrade (KDF_TOO_WEAK), above 2 is unknown (BAD_INPUT).
 */
export function checkAccountKdf(input: unknown): AccountKdf {
  const version = (input as { version?: unknown } | null)?.version;
  if (version === 2) return checkKdfParamsV2(input);
  return checkKdfParams(input);
}

function isInt(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

/** Validates untrusted parameters (for example from the server) and returns a clean copy. */
export function checkKdfParams(input: unknown): KdfParams {
  const p = input as Partial<KdfParams> | null;
  const a = p?.argon2id;
  const min = KDF_MINIMUM;
  if (!p || typeof p !== 'object' || !a || typeof a !== 'object' || !p.pbkdf2 || typeof p.pbkdf2 !== 'object') {
    fail('BAD_INPUT', 'KDF parameters are missing');
  }
  if (!isInt(p.version, 0, 1000)) fail('BAD_INPUT', 'KDF version is invalid');
  if (p.version < min.version) fail('KDF_TOO_WEAK', `KDF version ${p.version} is below ${min.version}`);
  if (p.version !== 1) fail('BAD_INPUT', `KDF version ${p.version} is not known to this client`);
  const checks: Array<[string, unknown, number, number]> = [
    ['argon2id.iterations', a.iterations, min.argon2id.iterations, LIMITS.iterations],
    ['argon2id.memoryKiB', a.memoryKiB, min.argon2id.memoryKiB, LIMITS.memoryKiB],
    ['argon2id.hashLength', a.hashLength, min.argon2id.hashLength, 64],
    ['pbkdf2.iterations', p.pbkdf2.iterations, min.pbkdf2.iterations, LIMITS.pbkdf2],
  ];
  for (const [name, value, lo, hi] of checks) {
    if (typeof value !== 'number' || !Number.isInteger(value) || value > hi) fail('BAD_INPUT', `${name} is invalid`);
    if (value < lo) fail('KDF_TOO_WEAK', `${name} ${value} is below the minimum ${lo}`);
  }
  if (!isInt(a.parallelism, 1, LIMITS.parallelism)) fail('BAD_INPUT', 'argon2id.parallelism is invalid');
  if (a.iterations! * a.memoryKiB! > LIMITS.work) fail('BAD_INPUT', 'argon2id memory x iterations is above the maximum');
  return {
    version: p.version,
    argon2id: { iterations: a.iterations!, memoryKiB: a.memoryKiB!, parallelism: a.parallelism, hashLength: a.hashLength! },
    pbkdf2: { iterations: p.pbkdf2.iterations },
  };
}

function checkSalt(salt: string, field: string): Bytes {
  const bytes = fromBase64(salt, field);
  if (bytes.length !== SALT_BYTES) fail('BAD_INPUT', `${field} must be ${SALT_BYTES} bytes`);
  return bytes;
}

function checkPassword(password: string): void {
  if (typeof password !== 'string' || password.length === 0) fail('BAD_INPUT', 'password is required');
}

/**
 * The login password the server sees. Version 1: base64(argon2id(password, passwordSalt)).
 * Version 2: base64(HKDF(argon2id(NFC password, passwordSalt), "sealbox:v2:login")) (kdf-v2.ts).
 */
export async function deriveLoginPassword(password: string, passwordSalt: string, params: unknown): Promise<string> {
  const checked = checkAccountKdf(params);
  if (checked.version === 2) {
    const { loginPassword, wrappingKeyBits } = await derivePasswordKeysV2(password, passwordSalt, checked);
    wrappingKeyBits.fill(0);
    return loginPassword;
  }
  const p = checked as KdfParams;
  const salt = checkSalt(passwordSalt, 'passwordSalt');
  checkPassword(password);
  return toBase64(await argon2idBits(utf8(password), salt, p.argon2id));
}

/** Raw PBKDF2 output; only tests and the key import below need the bytes. */
export async function deriveWrappingKeyBits(password: string, salt: string, params: unknown): Promise<Bytes> {
  const p = checkKdfParams(params);
  const saltBytes = checkSalt(salt, 'salt');
  checkPassword(password);
  const base = await crypto.subtle.importKey('raw', utf8(password), 'PBKDF2', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits(
    { name: 'PBKDF2', salt: saltBytes, iterations: p.pbkdf2.iterations, hash: 'SHA-256' },
    base,
    256,
  );
  return new Uint8Array(bits);
}

/** The AES-GCM key that seals the account bundle; never extractable. */
export async function deriveWrappingKey(password: string, salt: string, params: unknown): Promise<CryptoKey> {
  const bits = await deriveWrappingKeyBits(password, salt, params);
  const key = await crypto.subtle.importKey('raw', own(bits), 'AES-GCM', false, ['encrypt', 'decrypt']);
  bits.fill(0);
  return key;
}

export function newSalt(): string {
  return toBase64(crypto.getRandomValues(new Uint8Array(SALT_BYTES)));
}
