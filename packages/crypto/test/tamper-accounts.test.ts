/**
 * One tamper test per rule of docs/protocol.md, for an account: its key bundle and the KDF
 * parameters the server hands back. Each names the attack class it stops (items:
 * tamper-items.test.ts; sharing, pins and link keys: tamper-sharing.test.ts).
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { fromBase64, toBase64 } from '../src/bytes.ts';
import { KDF_V1, checkKdfParams, deriveLoginPassword, deriveWrappingKey } from '../src/kdf.ts';
import { type AccountKeys, type Registration, createAccount, unlockAccount } from '../src/account.ts';
import { newItemId, newItemKey, unwrapItemKey, wrapItemKey } from '../src/item.ts';
import { expectCode, expectNothingDerived, flips } from './tamper-checks.ts';

const key = newItemKey();
const id = newItemId();

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
    await expectNothingDerived(async () => {
      for (const params of weak) {
        await expectCode(deriveLoginPassword('secret password', toBase64(new Uint8Array(16)), params), 'KDF_TOO_WEAK');
        await expectCode(deriveWrappingKey('secret password', toBase64(new Uint8Array(16)), params), 'KDF_TOO_WEAK');
        await expectCode(
          unlockAccount('secret password', { salt: '', iv: '', encryptedPrivateKey: '', kdf: params }),
          'KDF_TOO_WEAK',
        );
      }
    });
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
