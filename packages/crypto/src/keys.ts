import { type Bytes, fromBase64, own, toBase64 } from './bytes.ts';
import { fail } from './errors.ts';

/** Signing prefers Ed25519; ECDSA P-256 is the fallback for runtimes without it (docs/protocol.md). */
export type SigningAlgorithm = 'Ed25519' | 'ECDSA-P256';

const ED25519_SPKI_PREFIX = '302a300506032b6570032100';
const RSA_PARAMS = { name: 'RSA-OAEP', modulusLength: 4096, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' };

function signingImportParams(alg: SigningAlgorithm): AlgorithmIdentifier | EcKeyImportParams {
  return alg === 'Ed25519' ? { name: 'Ed25519' } : { name: 'ECDSA', namedCurve: 'P-256' };
}

export function signParams(key: CryptoKey): AlgorithmIdentifier | EcdsaParams {
  return key.algorithm.name === 'Ed25519' ? { name: 'Ed25519' } : { name: 'ECDSA', hash: 'SHA-256' };
}

export async function generateSigningPair(): Promise<CryptoKeyPair> {
  try {
    return (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
  } catch {
    return crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
  }
}

export async function generateEncryptionPair(): Promise<CryptoKeyPair> {
  return crypto.subtle.generateKey(RSA_PARAMS, true, ['encrypt', 'decrypt']);
}

export function signingAlgorithmOf(spki: Uint8Array): SigningAlgorithm {
  const prefix = Array.from(spki.subarray(0, 12), (b) => b.toString(16).padStart(2, '0')).join('');
  return prefix === ED25519_SPKI_PREFIX && spki.length === 44 ? 'Ed25519' : 'ECDSA-P256';
}

export async function importSigningPublicKey(spkiBase64: string): Promise<CryptoKey> {
  const spki = fromBase64(spkiBase64, 'signingPublicKey');
  try {
    return await crypto.subtle.importKey('spki', spki, signingImportParams(signingAlgorithmOf(spki)), true, ['verify']);
  } catch {
    return fail('BAD_INPUT', 'signingPublicKey is not a valid public key');
  }
}

export async function importSigningPrivateKey(pkcs8: Bytes, alg: SigningAlgorithm): Promise<CryptoKey> {
  return crypto.subtle.importKey('pkcs8', pkcs8, signingImportParams(alg), false, ['sign']);
}

export async function importEncryptionPublicKey(spkiBase64: string): Promise<CryptoKey> {
  const spki = fromBase64(spkiBase64, 'publicKey');
  try {
    const key = await crypto.subtle.importKey('spki', spki, { name: 'RSA-OAEP', hash: 'SHA-256' }, true, ['encrypt']);
    if ((key.algorithm as RsaHashedKeyAlgorithm).modulusLength < 4096) fail('BAD_INPUT', 'publicKey is shorter than 4096 bits');
    return key;
  } catch (error) {
    if (error instanceof Error && error.name === 'CryptoError') throw error;
    return fail('BAD_INPUT', 'publicKey is not a valid RSA-OAEP public key');
  }
}

export async function importEncryptionPrivateKey(pkcs8: Bytes): Promise<CryptoKey> {
  return crypto.subtle.importKey('pkcs8', pkcs8, { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['decrypt']);
}

export async function exportBase64(format: 'spki' | 'pkcs8', key: CryptoKey): Promise<string> {
  return toBase64(new Uint8Array(await crypto.subtle.exportKey(format, key)));
}

export async function exportBytes(format: 'spki' | 'pkcs8', key: CryptoKey): Promise<Bytes> {
  return own(new Uint8Array(await crypto.subtle.exportKey(format, key)));
}
