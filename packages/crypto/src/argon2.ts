import { argon2id } from 'hash-wasm';
import { type Bytes, own } from './bytes.ts';

/** argon2id's cost settings, as both KDF versions store them per account. */
export interface Argon2idParams {
  iterations: number;
  memoryKiB: number;
  parallelism: number;
  hashLength: number;
}

/** Raw argon2id output for already-checked parameters; both KDF versions hash the password with it. */
export async function argon2idBits(password: Uint8Array, salt: Uint8Array, p: Argon2idParams): Promise<Bytes> {
  return own(
    await argon2id({
      password,
      salt,
      iterations: p.iterations,
      memorySize: p.memoryKiB,
      parallelism: p.parallelism,
      hashLength: p.hashLength,
      outputType: 'binary',
    }),
  );
}
