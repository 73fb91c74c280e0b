/**
 * One tamper test per rule of docs/protocol.md, for an item's sealed parts: its name and mime
 * type, its wrapped key and its chunked contents. Each names the attack class it stops; the
 * threat table in docs/protocol.md points here (accounts: tamper-accounts.test.ts; sharing, pins
 * and link keys: tamper-sharing.test.ts).
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { concat, toBase64 } from '../src/bytes.ts';
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
import { CHUNK, CIPHER_CHUNK, decryptChunkAt, newFileNonce } from '../src/content.ts';
import { createDecryptStream, createEncryptStream, decryptBody } from '../src/content-streams.ts';
import { expectCode, flips } from './tamper-checks.ts';
import { patternBytes, pipeBytes } from './vector-checks.ts';

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

/** What it is given as a byte stream (as a fetched body is): each piece in a fresh buffer, as the network's are. */
function asByteStream(source: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  return new ReadableStream({
    type: 'bytes',
    async pull(controller) {
      const { done, value } = await reader.read();
      if (!done) return controller.enqueue(value.slice());
      controller.close();
      controller.byobRequest?.respond(0);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/**
 * The same decryption behind `pipeThrough` (createDecryptStream), reading its source itself
 * (decryptBody), and reading a byte stream straight into its pieces (decryptBody, BYOB).
 */
const decryptVia = {
  pipe: (k: Uint8Array, n: Uint8Array) => createDecryptStream(k, n),
  body: (k: Uint8Array, n: Uint8Array) => {
    const pass = new TransformStream<Uint8Array, Uint8Array>();
    return { writable: pass.writable, readable: decryptBody(pass.readable, k, n) };
  },
  bytes: (k: Uint8Array, n: Uint8Array) => {
    const pass = new TransformStream<Uint8Array, Uint8Array>();
    return { writable: pass.writable, readable: decryptBody(asByteStream(pass.readable), k, n) };
  },
};

describe.each(['pipe', 'body', 'bytes'] as const)(
  'chunked contents, decrypted by %s (unauthenticated modes and chunking)',
  (via) => {
    const nonce = newFileNonce();
    const plain = patternBytes(CHUNK * 3 + 1234);
    let cipher: Uint8Array;
    const chunk = (i: number) => cipher.subarray(i * CIPHER_CHUNK, Math.min(cipher.length, (i + 1) * CIPHER_CHUNK));
    const decrypt = (bytes: Uint8Array, k: Uint8Array = key, n: Uint8Array = nonce) => pipeBytes(bytes, decryptVia[via](k, n));
    const join = concat;

    beforeAll(async () => {
      cipher = await pipeBytes(plain, createEncryptStream(key, nonce));
    });

    test('round trip, whatever the input pieces', async () => {
      expect(toBase64(await decrypt(cipher))).toBe(toBase64(plain));
      for (const piece of [1_000, CIPHER_CHUNK - 1, CIPHER_CHUNK, CIPHER_CHUNK + 1, cipher.length]) {
        expect(toBase64(await pipeBytes(cipher, decryptVia[via](key, nonce), piece))).toBe(toBase64(plain));
      }
    });

    test('an empty file and a file of exactly one chunk round-trip', async () => {
      for (const size of [0, CHUNK, 2 * CHUNK]) {
        const bytes = patternBytes(size);
        const sealed = await pipeBytes(bytes, createEncryptStream(key, nonce));
        expect(toBase64(await decrypt(sealed))).toBe(toBase64(bytes));
      }
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
          let fed = 0;
          let cancelled = false;
          const source = new ReadableStream<Uint8Array>({
            pull(controller) {
              if (fed >= tampered.length) return controller.close();
              controller.enqueue(tampered.subarray(fed, fed + pieceSize));
              fed += pieceSize;
            },
            cancel() {
              cancelled = true;
            },
          });
          const reader = source.pipeThrough(decryptVia[via](key, nonce)).getReader();
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
          // The rest of the body is not read on: its source is let go (through the pipe, a moment later).
          await new Promise((resolve) => setTimeout(resolve, 10));
          if (fed < tampered.length) expect(cancelled).toBe(true);
        }
      }
    });

    test('what is decrypted leaves while the input stalls (a slow network holds nothing back)', async () => {
      const many = patternBytes(CHUNK * 7 + 99);
      const sealed = await pipeBytes(many, createEncryptStream(key, nonce));
      // Three whole chunks and a little of the fourth, then the input stalls for good.
      const given = sealed.subarray(0, 3 * CIPHER_CHUNK + 100);
      let fed = 0;
      const source = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (fed >= given.length) return new Promise<void>(() => {});
          controller.enqueue(given.slice(fed, fed + 65_536));
          fed += 65_536;
        },
      });
      const reader = source.pipeThrough(decryptVia[via](key, nonce)).getReader();
      for (let i = 0; i < 3; i++) {
        const { done, value } = await reader.read();
        expect(done).toBe(false);
        expect(toBase64(value!)).toBe(toBase64(many.subarray(i * CHUNK, (i + 1) * CHUNK)));
      }
      await reader.cancel();
    });

    test('resuming at a chunk continues the same stream', async () => {
      const tail = await pipeBytes(plain.subarray(2 * CHUNK), createEncryptStream(key, nonce, { startChunk: 2 }));
      expect(toBase64(tail)).toBe(toBase64(cipher.subarray(2 * CIPHER_CHUNK)));
    });
  },
);
