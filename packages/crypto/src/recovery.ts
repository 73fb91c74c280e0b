/**
 * The recovery phrase (docs/protocol.md "Account" and "Recovery phrase"): 32 random bytes, shown
 * once as their 24-word BIP39 English mnemonic, seal a second copy of the account bundle, the
 * same plaintext the password seals. HKDF splits the entropy into recoveryWrap, the AES-GCM key
 * of that copy (bound to the user by its AAD), and recoveryAuth, which the server keeps only as a
 * hash to let the holder of the phrase replace the password. The server never sees the entropy
 * or recoveryWrap, so recovering keeps every key pair, the root key and with them every item.
 */
import { entropyToMnemonic, mnemonicToEntropy } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { type Bytes, equalBytes, fromBase64, own, randomBytes, toBase64 } from './bytes.ts';
import { type AesKey, NONCE_BYTES, checkLength, newNonce, open, seal } from './aead.ts';
import { fail } from './errors.ts';
import { KDF_V2, type KdfParamsV2, checkKdfParamsV2, hkdf } from './kdf-v2.ts';
import {
  type AccountKeys,
  type KdfUpgrade,
  type SealedInput,
  type UnlockOptions,
  acceptBundle,
  checkNewPassword,
  importWrappingKey,
  openAccount,
  sealBundle,
} from './account.ts';

export const RECOVERY_ENTROPY_BYTES = 32;
export const RECOVERY_PHRASE_WORDS = 24;
const WRAP_INFO = 'sealbox:v2:recovery-wrap';
const AUTH_INFO = 'sealbox:v2:recovery-auth';

/** The BIP39 English list, in order, for a phrase input's autocomplete. A copy, so the library's own stays untouched. */
export const RECOVERY_WORDS: readonly string[] = Object.freeze([...wordlist]);
const KNOWN = new Set(RECOVERY_WORDS);

/** The recovery-sealed copy of the bundle as the server stores it. */
export interface RecoveryCopy {
  recoverySealed: string;
  recoveryNonce: string;
}

/** What the client sends when it (re)makes the phrase; `phrase` is shown once and never sent. */
export interface RecoverySetup extends RecoveryCopy {
  phrase: string;
  recoveryAuth: string;
}

/** What the server hands back to someone recovering; the public keys, if given, are checked. */
export interface RecoveryInput extends RecoveryCopy {
  userId: string;
  publicKey?: string;
  signingPublicKey?: string;
}

/** The body of a reset: the new password keys (`password` is the new login password) and a fresh recovery copy. */
export interface RecoveryReset extends KdfUpgrade, RecoveryCopy {
  recoveryAuth: string;
}

function normalise(text: string): string {
  if (typeof text !== 'string') fail('BAD_INPUT', 'the recovery phrase must be text');
  // NFKD as BIP39 asks; case and spacing are how people copy words down, not part of them.
  return text.normalize('NFKD').toLowerCase().trim();
}

/**
 * Why one typed word cannot be part of a phrase, as a sentence a UI can show, or null when it is
 * a list word (or nothing has been typed yet). `position` counts from 1.
 */
export function recoveryWordProblem(word: string, position?: number): string | null {
  const w = normalise(word);
  if (w === '' || KNOWN.has(w)) return null;
  const where = position === undefined ? '' : ` (word ${position})`;
  return `“${w}”${where} is not a recovery phrase word`;
}

/** A fresh phrase and its entropy; zero `entropy` once its keys are made. */
export function newRecoveryPhrase(): { phrase: string; entropy: Bytes } {
  const entropy = randomBytes(RECOVERY_ENTROPY_BYTES);
  return { phrase: entropyPhrase(entropy), entropy };
}

/** The 24 words of 32 bytes of entropy, single-spaced and lower-case. */
export function entropyPhrase(entropy: Bytes): string {
  checkLength(entropy, RECOVERY_ENTROPY_BYTES, 'recovery entropy');
  return entropyToMnemonic(entropy, wordlist);
}

/** The entropy of a typed phrase; BAD_INPUT with a message a UI can show when it is not one. */
export function phraseEntropy(phrase: string): Bytes {
  const text = normalise(phrase);
  const words = text === '' ? [] : text.split(/\s+/);
  if (words.length !== RECOVERY_PHRASE_WORDS) {
    fail('BAD_INPUT', `The recovery phrase has ${RECOVERY_PHRASE_WORDS} words; this has ${words.length}`);
  }
  words.forEach((word, i) => {
    const problem = recoveryWordProblem(word, i + 1);
    if (problem) fail('BAD_INPUT', problem);
  });
  let entropy: Uint8Array;
  try {
    entropy = mnemonicToEntropy(words.join(' '), wordlist);
  } catch {
    // Count and words are already known good: only the checksum (the last word's low bits) is left.
    return fail('BAD_INPUT', `These ${RECOVERY_PHRASE_WORDS} words are not a valid recovery phrase: check each word`);
  }
  return own(entropy);
}

/** Raw HKDF outputs; only tests and recoveryKeys need the bytes (zero them afterwards). */
export async function recoveryKeyBits(entropy: Bytes): Promise<{ wrap: Bytes; auth: Bytes }> {
  checkLength(entropy, RECOVERY_ENTROPY_BYTES, 'recovery entropy');
  const [wrap, auth] = await Promise.all([hkdf(own(entropy), WRAP_INFO), hkdf(own(entropy), AUTH_INFO)]);
  return { wrap, auth };
}

/** recoveryWrap as a non-extractable AES-GCM key, and recoveryAuth as the base64 the server hashes. */
export async function recoveryKeys(entropy: Bytes): Promise<{ recoveryWrap: CryptoKey; recoveryAuth: string }> {
  const { wrap, auth } = await recoveryKeyBits(entropy);
  try {
    return { recoveryWrap: await importWrappingKey(wrap), recoveryAuth: toBase64(auth) };
  } finally {
    wrap.fill(0);
    auth.fill(0);
  }
}

/** The copy opens only for the user it was made for: a server cannot hand one user's copy to another. */
export function recoveryAad(userId: string): string {
  if (typeof userId !== 'string' || userId.length === 0) fail('BAD_INPUT', 'userId is required');
  return `sealbox:v2:recovery:${userId}`;
}

export function sealRecoveryCopy(wrap: AesKey, nonce: Bytes, userId: string, bundle: Bytes): Promise<Bytes> {
  return seal(wrap, nonce, recoveryAad(userId), bundle);
}

export function openRecoveryCopy(wrap: AesKey, nonce: Bytes, userId: string, sealed: Bytes): Promise<Bytes> {
  return open(wrap, nonce, recoveryAad(userId), sealed);
}

/** A fresh nonce each time, and the copy opened once before it can replace a working one. */
async function sealFreshCopy(wrap: CryptoKey, userId: string, bundle: Bytes): Promise<RecoveryCopy> {
  const nonce = newNonce();
  const sealed = await sealRecoveryCopy(wrap, nonce, userId, bundle);
  const check = await openRecoveryCopy(wrap, nonce, userId, sealed);
  const same = equalBytes(check, bundle);
  check.fill(0);
  if (!same) fail('DECRYPT_FAILED', 'the recovery copy does not open');
  return { recoverySealed: toBase64(sealed), recoveryNonce: toBase64(nonce) };
}

/** A new phrase, its keys, and the bundle sealed under it; the entropy is zeroed before returning. */
async function newRecoveryFor(userId: string, bundle: Bytes): Promise<RecoverySetup> {
  const { phrase, entropy } = newRecoveryPhrase();
  let keys: { recoveryWrap: CryptoKey; recoveryAuth: string };
  try {
    keys = await recoveryKeys(entropy);
  } finally {
    entropy.fill(0);
  }
  return { phrase, recoveryAuth: keys.recoveryAuth, ...(await sealFreshCopy(keys.recoveryWrap, userId, bundle)) };
}

/**
 * A new recovery phrase for an account, at registration or when the user re-makes it from
 * Profile: opens the bundle with the password (as unlockAccount does; a version-2 account may pass
 * `options.wrappingKey`, which createAccount also returns, to spare the argon2id) and seals that
 * same plaintext under the phrase. A new phrase replaces the old one once the server stores it.
 */
export async function makeRecovery(
  password: string,
  sealed: SealedInput,
  userId: string,
  options: UnlockOptions = {},
): Promise<RecoverySetup> {
  recoveryAad(userId);
  const { plaintext } = await openAccount(password, sealed, options);
  try {
    return await newRecoveryFor(userId, plaintext);
  } finally {
    plaintext.fill(0);
  }
}

/**
 * Recovery with the phrase: opens the recovery copy, checks the public keys the server claims as
 * unlock does, then seals the same bundle under version-2 keys of `newPassword` (fresh
 * passwordSalt, salt and iv) and re-seals the recovery copy under the same recoveryWrap with a
 * fresh nonce, so the phrase stays valid. Both new ciphertexts are opened once before returning.
 */
export async function recoverAccount(
  phrase: string,
  recovery: RecoveryInput,
  newPassword: string,
  target: KdfParamsV2 = KDF_V2,
): Promise<{ keys: AccountKeys; reset: RecoveryReset }> {
  const kdf = checkKdfParamsV2(target);
  checkNewPassword(newPassword);
  recoveryAad(recovery.userId);
  const nonce = fromBase64(recovery.recoveryNonce, 'recoveryNonce');
  checkLength(nonce, NONCE_BYTES, 'recoveryNonce');
  const ciphertext = fromBase64(recovery.recoverySealed, 'recoverySealed');
  const entropy = phraseEntropy(phrase);
  let recoveryWrap: CryptoKey;
  let recoveryAuth: string;
  try {
    ({ recoveryWrap, recoveryAuth } = await recoveryKeys(entropy));
  } finally {
    entropy.fill(0);
  }
  const plaintext = await openRecoveryCopy(recoveryWrap, nonce, recovery.userId, ciphertext);
  const keys = await acceptBundle(plaintext, recovery);
  try {
    const change = await sealBundle(plaintext, newPassword, kdf);
    const copy = await sealFreshCopy(recoveryWrap, recovery.userId, plaintext);
    return { keys, reset: { recoveryAuth, ...change, ...copy } };
  } finally {
    plaintext.fill(0);
  }
}
