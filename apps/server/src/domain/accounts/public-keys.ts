import { DomainError } from '../errors.ts';

/**
 * The server cannot vouch for a key (clients pin and compare fingerprints), but it refuses
 * anything that is not the kind of key the protocol names, so no client ever has to cope with
 * an RSA-2048 key or random bytes in a publicKey field. Parsing is WebCrypto's own.
 */
export async function checkEncryptionPublicKey(spki: Uint8Array<ArrayBuffer>): Promise<void> {
  let key: CryptoKey;
  try {
    key = await crypto.subtle.importKey('spki', spki, { name: 'RSA-OAEP', hash: 'SHA-256' }, true, ['encrypt']);
  } catch {
    throw new DomainError('VALIDATION', 'publicKey must be an RSA-OAEP SPKI');
  }
  const algorithm = key.algorithm as RsaHashedKeyAlgorithm;
  if (algorithm.modulusLength !== 4096) throw new DomainError('VALIDATION', 'publicKey must be a 4096-bit RSA key');
}

export async function checkSigningPublicKey(spki: Uint8Array<ArrayBuffer>): Promise<void> {
  const candidates: Array<AlgorithmIdentifier | EcKeyImportParams> = ['Ed25519', { name: 'ECDSA', namedCurve: 'P-256' }];
  for (const algorithm of candidates) {
    try {
      await crypto.subtle.importKey('spki', spki, algorithm, true, ['verify']);
      return;
    } catch {
      // try the next kind
    }
  }
  throw new DomainError('VALIDATION', 'signingPublicKey must be an Ed25519 or ECDSA P-256 SPKI');
}
