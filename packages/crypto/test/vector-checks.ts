/**
 * Known-answer checks against vectors from an independent implementation. Plain async functions
 * with their own asserts, so the same list runs under `bun test` and inside a browser worker.
 */
import vectors from './sealbox-v1.json';
import vectorsV2 from './sealbox-v2.json';
import recoveryVectors from './sealbox-recovery.json';
import { fromBase64, toBase64, utf8 } from '../src/bytes.ts';
import { seal } from '../src/aead.ts';
import { deriveLoginPassword, deriveWrappingKeyBits, KDF_V1 } from '../src/kdf.ts';
import { decryptMime, decryptName, keyAad, mimeAad, nameAad, unwrapItemKey } from '../src/item.ts';
import { CHUNK, chunkCipherRange, chunkCount, ciphertextSize, decryptChunkAt, plaintextSize } from '../src/content.ts';
import { createDecryptStream, createEncryptStream } from '../src/content-streams.ts';
import { decodeLinkKey, encodeLinkKey } from '../src/link.ts';
import { formatFingerprint, sha256Hex } from '../src/fingerprint.ts';
import { CryptoError } from '../src/errors.ts';
import { importSigningPrivateKey } from '../src/keys.ts';
import { derivePasswordKeysV2 } from '../src/kdf-v2.ts';
import { grantMessage, signGrant, verifyGrant } from '../src/share.ts';
import {
  entropyPhrase,
  openRecoveryCopy,
  phraseEntropy,
  recoveryAad,
  recoveryKeyBits,
  recoveryKeys,
  sealRecoveryCopy,
} from '../src/recovery.ts';

export interface Check {
  name: string;
  run: () => Promise<void>;
}

function assertEqual(actual: unknown, expected: unknown, what: string): void {
  if (actual !== expected) throw new Error(`${what}: expected ${String(expected)}, got ${String(actual)}`);
}

export async function assertRejects(fn: () => unknown, code: string, what: string): Promise<void> {
  try {
    await fn();
  } catch (error) {
    if (error instanceof CryptoError && error.code === code) return;
    throw new Error(`${what}: expected ${code}, got ${String(error)}`);
  }
  throw new Error(`${what}: expected ${code}, but it succeeded`);
}

/** byte j = (7 + j) mod 256, as the vectors' plaintext descriptions say. */
export function patternBytes(length: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(length);
  for (let j = 0; j < length; j++) out[j] = (7 + j) & 0xff;
  return out;
}

/** Feeds `data` through `transform` in uneven pieces, so re-chunking is exercised too. */
export async function pipeBytes(
  data: Uint8Array,
  transform: ReadableWritablePair<Uint8Array, Uint8Array>,
  piece = 100_003,
): Promise<Uint8Array> {
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < data.length; i += piece) controller.enqueue(data.slice(i, i + piece));
      controller.close();
    },
  });
  const parts: Uint8Array[] = [];
  let total = 0;
  const reader = source.pipeThrough(transform).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    total += value.length;
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

const v = vectors.vectors;
const b = (s: string) => fromBase64(s);

/**
 * One AES-GCM field of the vector item: its AAD, the ciphertext sealed under the vector's key and
 * nonce, and what the library's own opener gives back. Each vector value is named as the vector does.
 */
function sealedItemField(
  name: string,
  field: {
    what: string;
    aad: (id: string) => string;
    expectedAad: string;
    key: string;
    nonce: string;
    plain: Uint8Array;
    sealed: [what: string, expected: string];
    opened: [what: string, expected: string];
    open: (item: typeof v.item) => Promise<string>;
  },
): Check {
  return {
    name,
    run: async () => {
      const it = v.item;
      assertEqual(field.aad(it.id), field.expectedAad, `${field.what} AAD`);
      assertEqual(
        toBase64(await seal(b(field.key), b(field.nonce), field.aad(it.id), field.plain)),
        field.sealed[1],
        field.sealed[0],
      );
      assertEqual(await field.open(it), field.opened[1], field.opened[0]);
    },
  };
}

export const vectorChecks: Check[] = [
  {
    name: 'login hash: argon2id(password, passwordSalt)',
    run: async () => {
      const lh = v.loginHash;
      const params = {
        ...KDF_V1,
        argon2id: { iterations: lh.iterations, memoryKiB: lh.memoryKiB, parallelism: lh.parallelism, hashLength: 32 },
      };
      assertEqual(await deriveLoginPassword(lh.password, lh.passwordSalt, params), lh.loginPassword, 'loginPassword');
    },
  },
  {
    name: 'wrapping key: PBKDF2-SHA256(password, salt, 120000)',
    run: async () => {
      const wk = v.wrappingKey;
      const params = { ...KDF_V1, pbkdf2: { iterations: wk.iterations } };
      assertEqual(toBase64(await deriveWrappingKeyBits(wk.password, wk.salt, params)), wk.key, 'wrapping key');
    },
  },
  sealedItemField('item name: AES-GCM with AAD sealbox:v1:name:<id>', {
    what: 'name',
    aad: nameAad,
    expectedAad: v.item.nameAad,
    key: v.item.key,
    nonce: v.item.nameNonce,
    plain: utf8(v.item.name),
    sealed: ['encryptedFileName', v.item.encryptedFileName],
    opened: ['decrypted name', v.item.name],
    open: (it) => decryptName(b(it.key), it.id, it.encryptedFileName, it.nameNonce),
  }),
  sealedItemField('item mime type: AES-GCM with AAD sealbox:v1:mime:<id>', {
    what: 'mime',
    aad: mimeAad,
    expectedAad: v.item.mimeAad,
    key: v.item.key,
    nonce: v.item.mimeTypeNonce,
    plain: utf8(v.item.mimeType),
    sealed: ['encryptedMimeType', v.item.encryptedMimeType],
    opened: ['decrypted mime', v.item.mimeType],
    open: (it) => decryptMime(b(it.key), it.id, it.encryptedMimeType, it.mimeTypeNonce),
  }),
  sealedItemField('key wrap: K under the parent key with AAD sealbox:v1:key:<id>', {
    what: 'key',
    aad: keyAad,
    expectedAad: v.item.keyAad,
    key: v.item.parentKey,
    nonce: v.item.keyNonce,
    plain: b(v.item.key),
    sealed: ['encryptedKey', v.item.encryptedKey],
    opened: ['unwrapped key', v.item.key],
    open: async (it) => toBase64(await unwrapItemKey(b(it.parentKey), it.id, it.encryptedKey, it.keyNonce)),
  }),
  ...v.contents.map(
    (c): Check => ({
      name: `contents: ${c.label} (${c.plaintextLength} bytes)`,
      run: async () => {
        assertEqual(vectors.chunkSize, CHUNK, 'chunk size');
        const plain = patternBytes(c.plaintextLength);
        const cipher = await pipeBytes(plain, createEncryptStream(b(c.key), b(c.fileNonce)));
        assertEqual(cipher.length, c.ciphertextLength, 'ciphertext length');
        assertEqual(ciphertextSize(c.plaintextLength), c.ciphertextLength, 'ciphertextSize()');
        assertEqual(plaintextSize(c.ciphertextLength), c.plaintextLength, 'plaintextSize()');
        assertEqual(await sha256Hex(cipher), c.ciphertextSha256, 'ciphertext sha256');
        if ('ciphertext' in c) assertEqual(toBase64(cipher), c.ciphertext, 'ciphertext');
        assertEqual(chunkCount(c.plaintextLength), c.chunkTags.length, 'chunk count');
        for (let i = 0; i < c.chunkTags.length; i++) {
          const { start, end } = chunkCipherRange(i, c.plaintextLength);
          const chunk = cipher.subarray(start, end);
          assertEqual(toBase64(chunk.subarray(chunk.length - 16)), c.chunkTags[i], `tag of chunk ${i}`);
          const alone = await decryptChunkAt(b(c.key), b(c.fileNonce), i, chunk, c.plaintextLength);
          assertEqual(toBase64(alone), toBase64(plain.subarray(i * CHUNK, i * CHUNK + alone.length)), `chunk ${i} alone`);
        }
        const back = await pipeBytes(cipher, createDecryptStream(b(c.key), b(c.fileNonce)), 65_536);
        assertEqual(toBase64(back), toBase64(plain), 'round trip');
      },
    }),
  ),
  {
    name: 'link key: base64url of exactly 32 bytes, others refused',
    run: async () => {
      const lk = v.linkKey;
      assertEqual(encodeLinkKey(b(lk.key)), lk.fragment, 'fragment');
      assertEqual(toBase64(decodeLinkKey(lk.fragment)), lk.key, 'decoded key');
      for (const bad of lk.refused) await assertRejects(() => decodeLinkKey(bad), 'BAD_LINK_KEY', `fragment ${bad}`);
    },
  },
  {
    name: 'fingerprint: SHA-256 hex in groups of 4',
    run: async () => {
      const fp = v.fingerprint.example;
      const hex = await sha256Hex(b(fp.input));
      assertEqual(hex, fp.sha256Hex, 'sha256');
      assertEqual(formatFingerprint(hex).split(' ').join(''), hex, 'grouping keeps every digit');
      assertEqual(formatFingerprint(hex).split(' ').length, 16, 'sixteen groups of 4');
    },
  },
  {
    name: 'share grant (v2): the signed message and its Ed25519 signature, byte for byte',
    run: async () => {
      const g = vectorsV2.vectors.grant;
      const grant = {
        sharerId: g.sharerId,
        recipientId: g.recipientId,
        itemId: g.itemId,
        encryptedKey: g.encryptedKey,
        edit: g.edit,
      };
      // The vector writes each NUL as the two characters \0.
      assertEqual(new TextDecoder().decode(grantMessage(grant)), g.message.split('\\0').join('\0'), 'message');
      const signingKey = await importSigningPrivateKey(b(g.signingPkcs8), 'Ed25519');
      assertEqual(await signGrant(signingKey, grant), g.signature, 'signature');
      await verifyGrant(g.signingPublicKey, grant, g.signature);
      await assertRejects(
        () => verifyGrant(g.signingPublicKey, { ...grant, edit: !g.edit }, g.signature),
        'BAD_SIGNATURE',
        'edit flipped',
      );
    },
  },
  ...vectorsV2.vectors.passwordKeysV2.map(
    (c): Check => ({
      name: `password keys v2 (${c.label}): login password and wrapping key`,
      run: async () => {
        const keys = await derivePasswordKeysV2(c.password, c.passwordSalt, c.kdf);
        assertEqual(keys.loginPassword, c.loginPassword, 'login password');
        assertEqual(toBase64(keys.wrappingKeyBits), c.wrappingKey, 'wrapping key');
      },
    }),
  ),
  {
    name: 'password keys v2: parameters below the floor or absurdly above are refused',
    run: async () => {
      const c = vectorsV2.vectors.passwordKeysV2[0]!;
      const with_ = (argon2id: Record<string, number>) => ({ ...c.kdf, argon2id: { ...c.kdf.argon2id, ...argon2id } });
      await assertRejects(
        () => derivePasswordKeysV2(c.password, c.passwordSalt, with_({ memoryKiB: 512 })),
        'KDF_TOO_WEAK',
        'tiny memory',
      );
      await assertRejects(
        () => derivePasswordKeysV2(c.password, c.passwordSalt, with_({ iterations: 1 })),
        'KDF_TOO_WEAK',
        'one pass',
      );
      await assertRejects(
        () => derivePasswordKeysV2(c.password, c.passwordSalt, with_({ memoryKiB: 1 << 22 })),
        'BAD_INPUT',
        '4 GiB',
      );
      await assertRejects(
        () => derivePasswordKeysV2(c.password, c.passwordSalt, with_({ iterations: 1000 })),
        'BAD_INPUT',
        '1000 passes',
      );
      await assertRejects(
        () => derivePasswordKeysV2(c.password, c.passwordSalt, { ...c.kdf, version: 1 }),
        'BAD_INPUT',
        'version 1',
      );
    },
  },
  ...recoveryVectors.vectors.phrases.map(
    (c): Check => ({
      name: `recovery phrase (${c.label}): 24 words both ways, recoveryWrap and recoveryAuth`,
      run: async () => {
        assertEqual(entropyPhrase(b(c.entropy)), c.phrase, 'phrase of the entropy');
        assertEqual(toBase64(phraseEntropy(c.phrase)), c.entropy, 'entropy of the phrase');
        // As someone might type it: capitals, a line break and doubled spaces.
        const typed = `  ${c.phrase.toUpperCase().split(' ').join('  ').replace('  ', '\n')} `;
        assertEqual(toBase64(phraseEntropy(typed)), c.entropy, 'entropy of the phrase as typed');
        const bits = await recoveryKeyBits(b(c.entropy));
        assertEqual(toBase64(bits.wrap), c.recoveryWrap, 'recoveryWrap');
        assertEqual(toBase64(bits.auth), c.recoveryAuth, 'recoveryAuth');
        assertEqual((await recoveryKeys(b(c.entropy))).recoveryAuth, c.recoveryAuth, 'recoveryKeys().recoveryAuth');
      },
    }),
  ),
  {
    name: 'recovery copy: the bundle under recoveryWrap with AAD sealbox:v2:recovery:<userId>',
    run: async () => {
      const s = recoveryVectors.vectors.sealedBundle;
      assertEqual(toBase64(phraseEntropy(s.phrase)), s.entropy, 'entropy of the phrase');
      assertEqual(recoveryAad(s.userId), s.aad, 'AAD');
      const { recoveryWrap } = await recoveryKeys(phraseEntropy(s.phrase));
      const sealed = await sealRecoveryCopy(recoveryWrap, b(s.nonce), s.userId, utf8(s.bundle));
      assertEqual(toBase64(sealed), s.sealed, 'sealed');
      const opened = await openRecoveryCopy(recoveryWrap, b(s.nonce), s.userId, b(s.sealed));
      assertEqual(new TextDecoder().decode(opened), s.bundle, 'opened bundle');
      await assertRejects(
        () => openRecoveryCopy(recoveryWrap, b(s.nonce), s.userId.replace('7c1d', '7c1e'), b(s.sealed)),
        'DECRYPT_FAILED',
        'another userId',
      );
    },
  },
];
