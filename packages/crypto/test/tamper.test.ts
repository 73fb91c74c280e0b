/**
 * One tamper test per rule of docs/protocol.md. Each names the attack class it stops; the
 * threat table in docs/protocol.md points here.
 */
import { beforeAll, describe, expect, spyOn, test } from 'bun:test';
import { fromBase64, toBase64, toBase64Url } from '../src/bytes.ts';
import { CryptoError } from '../src/errors.ts';
import { KDF_V1, checkKdfParams, deriveLoginPassword, deriveWrappingKey } from '../src/kdf.ts';
import { type AccountKeys, type Registration, createAccount, unlockAccount } from '../src/account.ts';
import {
  decryptMime,
  decryptName,
  encryptMime,
  encryptName,
  newItemId,
  newItemKey,
  unwrapItemKey,
  wrapItemKey,
} from '../src/item.ts';
import { CHUNK, CIPHER_CHUNK, createDecryptStream, createEncryptStream, decryptChunkAt, newFileNonce } from '../src/content.ts';
import { type ShareGrant, signGrant, unwrapKeyFromUser, verifyGrant, wrapKeyForUser } from '../src/share.ts';
import { checkPinnedKey, fingerprint } from '../src/fingerprint.ts';
import { decodeLinkKey, encodeLinkKey } from '../src/link.ts';
import { openPins, sealPins } from '../src/pins.ts';
import { patternBytes, pipeBytes } from './vector-checks.ts';

async function expectCode(promise: Promise<unknown> | (() => unknown), code: string): Promise<void> {
  try {
    await (typeof promise === 'function' ? promise() : promise);
  } catch (error) {
    expect(error).toBeInstanceOf(CryptoError);
    expect((error as CryptoError).code as string).toBe(code);
    return;
  }
  throw new Error(`expected ${code}, but it succeeded`);
}

/** Every single-bit flip position we try: first, second, middle and last byte of a field. */
function flips(b64: string): string[] {
  const bytes = fromBase64(b64);
  const positions = [...new Set([0, 1, bytes.length >> 1, bytes.length - 1])];
  return positions.map((p) => {
    const copy = new Uint8Array(bytes);
    copy[p]! ^= 0x01;
    return toBase64(copy);
  });
}

const parentKey = newItemKey();
const key = newItemKey();
const id = newItemId();
const otherId = newItemId();

describe('metadata tampering (names and mime types)', () => {
  test('a flipped bit in the name ciphertext or its nonce fails', async () => {
    const { encryptedFileName, nameNonce } = await encryptName(key, id, 'report.pdf');
    for (const bad of flips(encryptedFileName)) await expectCode(decryptName(key, id, bad, nameNonce), 'DECRYPT_FAILED');
    for (const bad of flips(nameNonce)) await expectCode(decryptName(key, id, encryptedFileName, bad), 'DECRYPT_FAILED');
    expect(await decryptName(key, id, encryptedFileName, nameNonce)).toBe('report.pdf');
  });

  test('a flipped bit in the mime ciphertext or its nonce fails', async () => {
    const { encryptedMimeType, mimeTypeNonce } = await encryptMime(key, id, 'application/pdf');
    for (const bad of flips(encryptedMimeType)) await expectCode(decryptMime(key, id, bad, mimeTypeNonce), 'DECRYPT_FAILED');
    for (const bad of flips(mimeTypeNonce)) await expectCode(decryptMime(key, id, encryptedMimeType, bad), 'DECRYPT_FAILED');
  });

  test('name and mime ciphertexts swapped fail (distinct AAD)', async () => {
    const name = await encryptName(key, id, 'text/html');
    const mime = await encryptMime(key, id, 'text/html');
    await expectCode(decryptName(key, id, mime.encryptedMimeType, mime.mimeTypeNonce), 'DECRYPT_FAILED');
    await expectCode(decryptMime(key, id, name.encryptedFileName, name.nameNonce), 'DECRYPT_FAILED');
  });

  test('a name moved to another item id fails (name and location tampering)', async () => {
    const { encryptedFileName, nameNonce } = await encryptName(key, id, 'report.pdf');
    await expectCode(decryptName(key, otherId, encryptedFileName, nameNonce), 'DECRYPT_FAILED');
  });

  test('the wrong item key fails', async () => {
    const { encryptedFileName, nameNonce } = await encryptName(key, id, 'report.pdf');
    await expectCode(decryptName(newItemKey(), id, encryptedFileName, nameNonce), 'DECRYPT_FAILED');
  });
});

describe('key wrapping (unauthenticated key material, folder and file injection)', () => {
  test('a flipped bit in the wrapped key or its nonce fails', async () => {
    const { encryptedKey, keyNonce } = await wrapItemKey(parentKey, id, key);
    for (const bad of flips(encryptedKey)) await expectCode(unwrapItemKey(parentKey, id, bad, keyNonce), 'DECRYPT_FAILED');
    for (const bad of flips(keyNonce)) await expectCode(unwrapItemKey(parentKey, id, encryptedKey, bad), 'DECRYPT_FAILED');
    expect(toBase64(await unwrapItemKey(parentKey, id, encryptedKey, keyNonce))).toBe(toBase64(key));
  });

  test('a wrapped key moved to another id fails', async () => {
    const { encryptedKey, keyNonce } = await wrapItemKey(parentKey, id, key);
    await expectCode(unwrapItemKey(parentKey, otherId, encryptedKey, keyNonce), 'DECRYPT_FAILED');
  });

  test('a wrapped key moved under another parent fails', async () => {
    const { encryptedKey, keyNonce } = await wrapItemKey(parentKey, id, key);
    await expectCode(unwrapItemKey(newItemKey(), id, encryptedKey, keyNonce), 'DECRYPT_FAILED');
  });

  test('the server cannot plant an item: a key wrapped under a key it made does not open under the real parent', async () => {
    const planted = await wrapItemKey(newItemKey(), id, newItemKey());
    await expectCode(unwrapItemKey(parentKey, id, planted.encryptedKey, planted.keyNonce), 'DECRYPT_FAILED');
  });

  test('malformed ids are refused before any crypto', async () => {
    await expectCode(wrapItemKey(parentKey, 'not-a-uuid', key), 'BAD_INPUT');
    await expectCode(wrapItemKey(parentKey, id.toUpperCase(), key), 'BAD_INPUT');
    await expectCode(wrapItemKey(parentKey, id, key.subarray(0, 31)), 'BAD_INPUT');
  });
});

describe('chunked contents (unauthenticated modes and chunking)', () => {
  const nonce = newFileNonce();
  const plain = patternBytes(CHUNK * 3 + 1234);
  let cipher: Uint8Array;
  const chunk = (i: number) => cipher.subarray(i * CIPHER_CHUNK, Math.min(cipher.length, (i + 1) * CIPHER_CHUNK));
  const decrypt = (bytes: Uint8Array, k: Uint8Array = key, n: Uint8Array = nonce) => pipeBytes(bytes, createDecryptStream(k, n));
  const join = (...parts: Uint8Array[]) => {
    const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
    let o = 0;
    for (const p of parts) {
      out.set(p, o);
      o += p.length;
    }
    return out;
  };

  beforeAll(async () => {
    cipher = await pipeBytes(plain, createEncryptStream(key, nonce));
  });

  test('round trip', async () => {
    expect(toBase64(await decrypt(cipher))).toBe(toBase64(plain));
  });

  test('a flipped bit in any chunk, in its tag, or in the file nonce fails', async () => {
    for (const pos of [0, CIPHER_CHUNK - 1, CIPHER_CHUNK + 5, cipher.length - 17, cipher.length - 1]) {
      const bad = new Uint8Array(cipher);
      bad[pos]! ^= 0x80;
      await expectCode(decrypt(bad), 'DECRYPT_FAILED');
    }
    const badNonce = new Uint8Array(nonce);
    badNonce[11]! ^= 1;
    await expectCode(decrypt(cipher, key, badNonce), 'DECRYPT_FAILED');
  });

  test('swapped chunks fail', async () => {
    await expectCode(decrypt(join(chunk(1), chunk(0), chunk(2), chunk(3))), 'DECRYPT_FAILED');
  });

  test('a duplicated chunk fails', async () => {
    await expectCode(decrypt(join(chunk(0), chunk(0), chunk(1), chunk(2), chunk(3))), 'DECRYPT_FAILED');
  });

  test('a dropped chunk fails', async () => {
    await expectCode(decrypt(join(chunk(0), chunk(2), chunk(3))), 'DECRYPT_FAILED');
  });

  test('a chunk spliced from another file fails, even under the same key', async () => {
    const other = await pipeBytes(plain, createEncryptStream(key, newFileNonce()));
    await expectCode(
      decrypt(join(chunk(0), other.subarray(CIPHER_CHUNK, 2 * CIPHER_CHUNK), chunk(2), chunk(3))),
      'DECRYPT_FAILED',
    );
  });

  test('truncated exactly at a chunk boundary fails (the last flag)', async () => {
    for (const n of [1, 2, 3]) await expectCode(decrypt(cipher.subarray(0, n * CIPHER_CHUNK)), 'DECRYPT_FAILED');
  });

  test('truncated inside the tag, or empty, fails', async () => {
    await expectCode(decrypt(cipher.subarray(0, 3 * CIPHER_CHUNK + 10)), 'TRUNCATED');
    await expectCode(decrypt(new Uint8Array(0)), 'TRUNCATED');
  });

  test('random access refuses a chunk presented at another index or as the last one', async () => {
    await expectCode(decryptChunkAt(key, nonce, 1, chunk(0), plain.length), 'DECRYPT_FAILED');
    const lastOfTwo = await pipeBytes(patternBytes(CHUNK * 2), createEncryptStream(key, nonce));
    // A full non-last chunk claimed to be the end of a shorter file: its last flag says otherwise.
    await expectCode(decryptChunkAt(key, nonce, 0, lastOfTwo.subarray(0, CIPHER_CHUNK), CHUNK), 'DECRYPT_FAILED');
  });

  test('with chunks decrypted in flight together, nothing after a failing chunk is emitted', async () => {
    const many = patternBytes(CHUNK * 7 + 99);
    const sealed = await pipeBytes(many, createEncryptStream(key, nonce));
    for (const bad of [0, 1, 3, 7]) {
      for (const pieceSize of [sealed.length, 65_536, CIPHER_CHUNK]) {
        const tampered = new Uint8Array(sealed);
        tampered[bad * CIPHER_CHUNK + 100]! ^= 1;
        const source = new ReadableStream<Uint8Array>({
          start(controller) {
            for (let o = 0; o < tampered.length; o += pieceSize) controller.enqueue(tampered.subarray(o, o + pieceSize));
            controller.close();
          },
        });
        const reader = source.pipeThrough(createDecryptStream(key, nonce)).getReader();
        const out: Uint8Array[] = [];
        let failure: unknown;
        try {
          for (let r = await reader.read(); !r.done; r = await reader.read()) out.push(r.value);
        } catch (error) {
          failure = error;
        }
        expect((failure as { code?: string } | undefined)?.code).toBe('DECRYPT_FAILED');
        // Exactly the chunks before the bad one, in order, and not a byte more.
        expect(out.length).toBe(bad);
        expect(toBase64(join(...out))).toBe(toBase64(many.subarray(0, bad * CHUNK)));
      }
    }
  });

  test('resuming at a chunk continues the same stream', async () => {
    const tail = await pipeBytes(plain.subarray(2 * CHUNK), createEncryptStream(key, nonce, { startChunk: 2 }));
    expect(toBase64(tail)).toBe(toBase64(cipher.subarray(2 * CIPHER_CHUNK)));
  });
});

describe('account bundle (unauthenticated key material, downgrade)', () => {
  let reg: Registration;
  let keys: AccountKeys;
  const password = 'correct horse battery staple';

  beforeAll(async () => {
    ({ registration: reg, keys } = await createAccount(password));
  }, 60_000);

  test('unlocks with the password and yields non-extractable keys', async () => {
    const unlocked = await unlockAccount(password, reg);
    expect(unlocked.publicKey).toBe(reg.publicKey);
    for (const k of [unlocked.encryptionPrivateKey, unlocked.signingPrivateKey, unlocked.rootKey])
      expect(k.extractable).toBe(false);
    // The root key must be the same one: a key wrapped at registration opens after unlock.
    const wrapped = await wrapItemKey(keys.rootKey, id, key);
    expect(toBase64(await unwrapItemKey(unlocked.rootKey, id, wrapped.encryptedKey, wrapped.keyNonce))).toBe(toBase64(key));
  }, 30_000);

  test('a wrong password fails', async () => {
    await expectCode(unlockAccount('wrong password!', reg), 'DECRYPT_FAILED');
  });

  test('a flipped bit in encryptedPrivateKey, iv or salt fails', async () => {
    for (const field of ['encryptedPrivateKey', 'iv', 'salt'] as const) {
      for (const bad of flips(reg[field]).slice(0, 2))
        await expectCode(unlockAccount(password, { ...reg, [field]: bad }), 'DECRYPT_FAILED');
    }
  }, 30_000);

  test('a public key swapped by the server is detected', async () => {
    const other = await createAccount('another password');
    await expectCode(unlockAccount(password, { ...reg, publicKey: other.registration.publicKey }), 'KEY_CHANGED');
    await expectCode(unlockAccount(password, { ...reg, signingPublicKey: other.registration.signingPublicKey }), 'KEY_CHANGED');
  }, 60_000);

  test('the login password is argon2id output, not the password, and differs per salt', () => {
    expect(reg.password).not.toContain(password);
    expect(fromBase64(reg.password).length).toBe(32);
  });
});

describe('KDF downgrade', () => {
  const weak = [
    { ...KDF_V1, version: 0 },
    { ...KDF_V1, argon2id: { ...KDF_V1.argon2id, iterations: 255 } },
    { ...KDF_V1, argon2id: { ...KDF_V1.argon2id, memoryKiB: 64 } },
    { ...KDF_V1, argon2id: { ...KDF_V1.argon2id, hashLength: 16 } },
    { ...KDF_V1, pbkdf2: { iterations: 1000 } },
  ];

  test('parameters below the minimum are refused before anything is derived', async () => {
    const encode = spyOn(TextEncoder.prototype, 'encode');
    const importKey = spyOn(crypto.subtle, 'importKey');
    const deriveBits = spyOn(crypto.subtle, 'deriveBits');
    try {
      for (const params of weak) {
        await expectCode(deriveLoginPassword('secret password', toBase64(new Uint8Array(16)), params), 'KDF_TOO_WEAK');
        await expectCode(deriveWrappingKey('secret password', toBase64(new Uint8Array(16)), params), 'KDF_TOO_WEAK');
        await expectCode(
          unlockAccount('secret password', { salt: '', iv: '', encryptedPrivateKey: '', kdf: params }),
          'KDF_TOO_WEAK',
        );
      }
      // Nothing touched the password or the KDF primitives.
      expect(encode).not.toHaveBeenCalled();
      expect(importKey).not.toHaveBeenCalled();
      expect(deriveBits).not.toHaveBeenCalled();
    } finally {
      encode.mockRestore();
      importKey.mockRestore();
      deriveBits.mockRestore();
    }
  });

  test('malformed parameters are BAD_INPUT, the minimum itself passes', async () => {
    for (const bad of [
      null,
      {},
      { ...KDF_V1, argon2id: { ...KDF_V1.argon2id, iterations: '256' } },
      { ...KDF_V1, pbkdf2: { iterations: 1e12 } },
    ]) {
      await expectCode(() => checkKdfParams(bad), 'BAD_INPUT');
    }
    expect(checkKdfParams(KDF_V1)).toEqual(KDF_V1);
  });
});

describe('sharing with users (unauthenticated public keys, key material)', () => {
  let alice: Awaited<ReturnType<typeof createAccount>>;
  let bob: Awaited<ReturnType<typeof createAccount>>;
  let grant: ShareGrant;
  let signature: string;

  beforeAll(async () => {
    [alice, bob] = await Promise.all([createAccount('alice password'), createAccount('bob password')]);
    grant = {
      sharerId: crypto.randomUUID(),
      itemId: id,
      recipientId: crypto.randomUUID(),
      encryptedKey: await wrapKeyForUser(bob.keys.publicKey, key),
      edit: false,
    };
    signature = await signGrant(alice.keys.signingPrivateKey, grant);
  }, 60_000);

  test('the recipient verifies the grant and unwraps K', async () => {
    await verifyGrant(alice.keys.signingPublicKey, grant, signature);
    expect(toBase64(await unwrapKeyFromUser(bob.keys.encryptionPrivateKey, grant.encryptedKey))).toBe(toBase64(key));
  });

  test('a missing or empty signature is rejected', async () => {
    await expectCode(verifyGrant(alice.keys.signingPublicKey, grant, undefined), 'BAD_SIGNATURE');
    await expectCode(verifyGrant(alice.keys.signingPublicKey, grant, ''), 'BAD_SIGNATURE');
  });

  test('a wrong signature, or one by someone else, is rejected', async () => {
    for (const bad of flips(signature)) await expectCode(verifyGrant(alice.keys.signingPublicKey, grant, bad), 'BAD_SIGNATURE');
    const byBob = await signGrant(bob.keys.signingPrivateKey, grant);
    await expectCode(verifyGrant(alice.keys.signingPublicKey, grant, byBob), 'BAD_SIGNATURE');
  });

  test('every field of the grant is covered by the signature', async () => {
    const changed: ShareGrant[] = [
      { ...grant, sharerId: crypto.randomUUID() },
      { ...grant, itemId: otherId },
      { ...grant, recipientId: crypto.randomUUID() },
      { ...grant, encryptedKey: flips(grant.encryptedKey)[0]! },
      { ...grant, edit: true },
    ];
    for (const g of changed) await expectCode(verifyGrant(alice.keys.signingPublicKey, g, signature), 'BAD_SIGNATURE');
  });

  test('a key wrapped for someone else does not unwrap (and a tampered one fails)', async () => {
    await expectCode(unwrapKeyFromUser(alice.keys.encryptionPrivateKey, grant.encryptedKey), 'DECRYPT_FAILED');
    await expectCode(unwrapKeyFromUser(bob.keys.encryptionPrivateKey, flips(grant.encryptedKey)[2]!), 'DECRYPT_FAILED');
  });

  test('a changed pinned key is detected', async () => {
    const pinned = await fingerprint(alice.keys.publicKey, alice.keys.signingPublicKey);
    expect(checkPinnedKey(undefined, pinned)).toBe('first-use');
    expect(checkPinnedKey(pinned, pinned)).toBe('match');
    const swapped = await fingerprint(bob.keys.publicKey, alice.keys.signingPublicKey);
    await expectCode(() => checkPinnedKey(pinned, swapped), 'KEY_CHANGED');
  });

  test('a public key that is not RSA-4096 OAEP is refused', async () => {
    await expectCode(wrapKeyForUser(alice.keys.signingPublicKey, key), 'BAD_INPUT');
    await expectCode(wrapKeyForUser('bm90IGEga2V5', key), 'BAD_INPUT');
  });
});

describe('key pins (a server that alters or swaps the pins)', () => {
  const owner = crypto.randomUUID();
  const pins = { [crypto.randomUUID()]: 'ab'.repeat(32) };
  let root: CryptoKey;
  let otherRoot: CryptoKey;
  beforeAll(async () => {
    const make = () => crypto.subtle.importKey('raw', newItemKey(), 'AES-GCM', false, ['encrypt', 'decrypt']);
    [root, otherRoot] = await Promise.all([make(), make()]);
  });

  test('round trip, and a fresh nonce each time', async () => {
    const a = await sealPins(root, owner, pins);
    const b = await sealPins(root, owner, pins);
    expect(a.nonce).not.toBe(b.nonce);
    expect(await openPins(root, owner, a.sealed, a.nonce)).toEqual(pins);
  });

  test('a flipped bit, another owner, or another root key fails', async () => {
    const { sealed, nonce } = await sealPins(root, owner, pins);
    for (const bad of flips(sealed)) await expectCode(openPins(root, owner, bad, nonce), 'DECRYPT_FAILED');
    for (const bad of flips(nonce)) await expectCode(openPins(root, owner, sealed, bad), 'DECRYPT_FAILED');
    await expectCode(openPins(root, crypto.randomUUID(), sealed, nonce), 'DECRYPT_FAILED');
    await expectCode(openPins(otherRoot, owner, sealed, nonce), 'DECRYPT_FAILED');
  });

  test('only user ids to hex fingerprints are sealed', async () => {
    await expectCode(sealPins(root, owner, { 'not-an-id': 'ab'.repeat(32) }), 'BAD_INPUT');
    await expectCode(sealPins(root, owner, { [crypto.randomUUID()]: 'xyz' }), 'BAD_INPUT');
  });
});

describe('link keys (link-sharing leaks)', () => {
  test('31 and 33 byte keys, padding and junk are refused', async () => {
    const k = newItemKey();
    const enc = encodeLinkKey(k);
    expect(toBase64(decodeLinkKey(enc))).toBe(toBase64(k));
    for (const bad of [
      '',
      `${enc}=`,
      enc.slice(0, -1),
      `${enc}A`,
      `${enc.slice(0, 10)}+${enc.slice(11)}`,
      `${enc.slice(0, 10)}/${enc.slice(11)}`,
    ]) {
      await expectCode(() => decodeLinkKey(bad), 'BAD_LINK_KEY');
    }
    await expectCode(() => decodeLinkKey(toBase64Url(new Uint8Array(31))), 'BAD_LINK_KEY');
    await expectCode(() => decodeLinkKey(toBase64Url(new Uint8Array(33))), 'BAD_LINK_KEY');
    await expectCode(() => encodeLinkKey(new Uint8Array(31)), 'BAD_INPUT');
  });
});
