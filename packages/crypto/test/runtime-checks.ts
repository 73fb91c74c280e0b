/**
 * Whole-flow checks that must behave the same in every runtime (Bun, a browser Web Worker):
 * they prove the package runs unchanged there, including Ed25519 and RSA-OAEP 4096.
 */
import { createAccount, unlockAccount, upgradeAccount } from '../src/account.ts';
import { KDF_V1, deriveLoginPassword } from '../src/kdf.ts';
import { KDF_V2 } from '../src/kdf-v2.ts';
import { newItemId, newItemKey, unwrapItemKey, wrapItemKey } from '../src/item.ts';
import { signGrant, unwrapKeyFromUser, verifyGrant, wrapKeyForUser } from '../src/share.ts';
import { CIPHER_CHUNK, CHUNK, newFileNonce } from '../src/content.ts';
import { createDecryptStream, createEncryptStream } from '../src/content-streams.ts';
import { signingAlgorithmOf } from '../src/keys.ts';
import { fromBase64, toBase64 } from '../src/bytes.ts';
import { type Check, assertRejects as expectCode, patternBytes, pipeBytes } from './vector-checks.ts';

function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(what);
}

export const runtimeChecks: Check[] = [
  {
    name: 'account: create, unlock, Ed25519 signing, root key survives',
    run: async () => {
      const { registration, keys } = await createAccount('a long enough password');
      check(signingAlgorithmOf(fromBase64(registration.signingPublicKey)) === 'Ed25519', 'signing key is Ed25519');
      const unlocked = await unlockAccount('a long enough password', registration);
      check(!unlocked.rootKey.extractable && !unlocked.encryptionPrivateKey.extractable, 'unlocked keys are non-extractable');
      const id = newItemId();
      const k = newItemKey();
      const w = await wrapItemKey(keys.rootKey, id, k);
      check(
        toBase64(await unwrapItemKey(unlocked.rootKey, id, w.encryptedKey, w.keyNonce)) === toBase64(k),
        'root key round trip',
      );
      await expectCode(() => unlockAccount('the wrong password', registration), 'DECRYPT_FAILED', 'wrong password');
    },
  },
  {
    name: 'share grant: RSA-OAEP 4096 wrap, signature verifies, tampering refused',
    run: async () => {
      const [a, b] = await Promise.all([createAccount('password of alice'), createAccount('password of bob')]);
      const k = newItemKey();
      const grant = {
        sharerId: crypto.randomUUID(),
        itemId: newItemId(),
        recipientId: crypto.randomUUID(),
        encryptedKey: await wrapKeyForUser(b.keys.publicKey, k),
        edit: true,
      };
      const signature = await signGrant(a.keys.signingPrivateKey, grant);
      await verifyGrant(a.keys.signingPublicKey, grant, signature);
      await expectCode(
        () => verifyGrant(a.keys.signingPublicKey, { ...grant, edit: false }, signature),
        'BAD_SIGNATURE',
        'edit flag flipped',
      );
      await expectCode(() => verifyGrant(a.keys.signingPublicKey, grant, null), 'BAD_SIGNATURE', 'missing signature');
      check(
        toBase64(await unwrapKeyFromUser(b.keys.encryptionPrivateKey, grant.encryptedKey)) === toBase64(k),
        'recipient unwraps K',
      );
    },
  },
  {
    name: 'contents: swapped, dropped and boundary-truncated chunks are refused',
    run: async () => {
      const k = newItemKey();
      const nonce = newFileNonce();
      const cipher = await pipeBytes(patternBytes(2 * CHUNK + 5), createEncryptStream(k, nonce));
      const swapped = new Uint8Array(cipher);
      swapped.set(cipher.subarray(CIPHER_CHUNK, 2 * CIPHER_CHUNK), 0);
      swapped.set(cipher.subarray(0, CIPHER_CHUNK), CIPHER_CHUNK);
      await expectCode(() => pipeBytes(swapped, createDecryptStream(k, nonce)), 'DECRYPT_FAILED', 'swapped');
      await expectCode(
        () => pipeBytes(cipher.subarray(CIPHER_CHUNK), createDecryptStream(k, nonce)),
        'DECRYPT_FAILED',
        'dropped first',
      );
      await expectCode(
        () => pipeBytes(cipher.subarray(0, 2 * CIPHER_CHUNK), createDecryptStream(k, nonce)),
        'DECRYPT_FAILED',
        'truncated',
      );
    },
  },
  {
    name: 'password keys v2: an account created on v2 unlocks; a v1 account upgraded keeps its root key',
    run: async () => {
      const password = 'a long enough password';
      const v2 = await createAccount(password, KDF_V2);
      check(v2.registration.kdf.version === 2, 'registered on version 2');
      check(
        (await deriveLoginPassword(password, v2.registration.passwordSalt, KDF_V2)) === v2.registration.password,
        'login password',
      );
      const unlocked = await unlockAccount(password, v2.registration);
      check(unlocked.publicKey === v2.registration.publicKey, 'v2 unlocks');
      await expectCode(() => unlockAccount(password, { ...v2.registration, kdf: KDF_V1 }), 'DECRYPT_FAILED', 'v1 claimed for v2');

      const v1 = await createAccount(password, KDF_V1);
      const { upgrade } = await upgradeAccount(password, v1.registration);
      const after = await unlockAccount(password, upgrade);
      const id = newItemId();
      const k = newItemKey();
      const w = await wrapItemKey(v1.keys.rootKey, id, k);
      check(
        toBase64(await unwrapItemKey(after.rootKey, id, w.encryptedKey, w.keyNonce)) === toBase64(k),
        'the upgraded account keeps its root key',
      );
    },
  },
  {
    name: 'KDF: parameters below the minimum are refused',
    run: async () => {
      const weak = { ...KDF_V1, pbkdf2: { iterations: 119_999 } };
      await expectCode(() => deriveLoginPassword('password', toBase64(new Uint8Array(16)), weak), 'KDF_TOO_WEAK', 'weak pbkdf2');
    },
  },
];
