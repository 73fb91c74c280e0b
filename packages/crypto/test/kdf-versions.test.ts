/**
 * Password keys by version (docs/protocol.md "Account"): version 2 for new accounts, version 1
 * kept for existing ones and upgraded at their next login, and the client's floor and ceiling
 * for parameters a hostile server sends (downgrade, and sign-ins made to cost minutes).
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { fromBase64, toBase64 } from '../src/bytes.ts';
import { CryptoError } from '../src/errors.ts';
import { KDF_V1, checkAccountKdf, deriveLoginPassword } from '../src/kdf.ts';
import { KDF_V2, derivePasswordKeysV2 } from '../src/kdf-v2.ts';
import { type Registration, createAccount, passwordKeys, unlockAccount, upgradeAccount } from '../src/account.ts';
import { newItemId, newItemKey, unwrapItemKey, wrapItemKey } from '../src/item.ts';
import { expectCode, expectNothingDerived } from './tamper-checks.ts';

const PASSWORD = 'correct horse battery staple';
const SALT = toBase64(new Uint8Array(16).fill(9));
const v2 = (patch: Partial<(typeof KDF_V2)['argon2id']>, extra: Record<string, unknown> = {}) => ({
  ...KDF_V2,
  argon2id: { ...KDF_V2.argon2id, ...patch },
  ...extra,
});
const v1 = (patch: Partial<(typeof KDF_V1)['argon2id']>, pbkdf2 = KDF_V1.pbkdf2.iterations) => ({
  ...KDF_V1,
  argon2id: { ...KDF_V1.argon2id, ...patch },
  pbkdf2: { iterations: pbkdf2 },
});

describe('KDF parameters a server sends: floor and ceiling of each version', () => {
  const weak: Array<[string, unknown]> = [
    ['version 0', { ...KDF_V1, version: 0 }],
    ['v1 argon2id 255 passes', v1({ iterations: 255 })],
    ['v1 argon2id 256 KiB', v1({ memoryKiB: 256 })],
    ['v1 PBKDF2 119999', v1({}, 119_999)],
    ['v2 one pass', v2({ iterations: 1 })],
    ['v2 19 MiB less 1 KiB', v2({ memoryKiB: 19 * 1024 - 1 })],
    ['v2 with v1 memory (512 KiB)', v2({ memoryKiB: 512 })],
  ];
  const absurd: Array<[string, unknown]> = [
    ['v2 11 passes', v2({ iterations: 11 })],
    ['v2 256 MiB + 1 KiB', v2({ memoryKiB: 256 * 1024 + 1 })],
    ['v2 4 GiB', v2({ memoryKiB: 1 << 22 })],
    ['v2 parallelism 5', v2({ parallelism: 5 })],
    ['v2 a 64-byte hash', v2({ hashLength: 64 })],
    ['v1 4 GiB', v1({ memoryKiB: 1 << 22 })],
    ['v1 65536 passes', v1({ iterations: 1 << 16 })],
    ['v1 256 MiB x 4096 passes', v1({ memoryKiB: 256 * 1024, iterations: 4096 })],
    ['v1 PBKDF2 10 million', v1({}, 10_000_000)],
    ['an unknown version 3', { ...KDF_V2, version: 3 }],
    ['version as text', { ...KDF_V2, version: '2' }],
    ['v2 iterations as text', v2({ iterations: '3' as unknown as number })],
    ['v2 fractional memory', v2({ memoryKiB: 65536.5 })],
    ['nothing', null],
  ];

  test('the built-in versions pass and come back as clean copies', () => {
    expect(checkAccountKdf(KDF_V1)).toEqual(KDF_V1);
    expect(checkAccountKdf(KDF_V2)).toEqual(KDF_V2);
    expect(checkAccountKdf(v2({}, { evil: 1 }))).toEqual(KDF_V2);
    expect(checkAccountKdf(v2({ iterations: 2, memoryKiB: 19 * 1024 }))).toEqual(v2({ iterations: 2, memoryKiB: 19 * 1024 }));
    expect(checkAccountKdf(v2({ iterations: 10, memoryKiB: 256 * 1024 }))).toEqual(v2({ iterations: 10, memoryKiB: 256 * 1024 }));
  });

  test.each(weak)('%s is KDF_TOO_WEAK', async (_, params) => {
    await expectCode(() => checkAccountKdf(params), 'KDF_TOO_WEAK');
  });

  test.each(absurd)('%s is BAD_INPUT', async (_, params) => {
    await expectCode(() => checkAccountKdf(params), 'BAD_INPUT');
  });

  test('refused before the password or any KDF primitive is touched (login and unlock)', async () => {
    await expectNothingDerived(async () => {
      for (const [, params] of [...weak, ...absurd]) {
        const login = deriveLoginPassword(PASSWORD, SALT, params);
        await expect(login).rejects.toBeInstanceOf(CryptoError);
        const sealed = { passwordSalt: SALT, salt: SALT, iv: '', encryptedPrivateKey: '', kdf: params as typeof KDF_V2 };
        await expect(unlockAccount(PASSWORD, sealed)).rejects.toBeInstanceOf(CryptoError);
        await expect(passwordKeys(PASSWORD, sealed)).rejects.toBeInstanceOf(CryptoError);
      }
    });
  });
});

describe('accounts on version 2, and version-1 accounts upgraded', () => {
  let regV1: Registration;
  let regV2: Registration;
  let rootV1: CryptoKey;
  let rootV2: CryptoKey;

  beforeAll(async () => {
    const [a, b] = await Promise.all([createAccount(PASSWORD, KDF_V1), createAccount(PASSWORD, KDF_V2)]);
    ({
      registration: regV1,
      keys: { rootKey: rootV1 },
    } = a);
    ({
      registration: regV2,
      keys: { rootKey: rootV2 },
    } = b);
  }, 60_000);

  test('the default stays version 1 for existing callers; the app asks for version 2', () => {
    expect(regV1.kdf).toEqual(KDF_V1);
    expect(regV2.kdf).toEqual(KDF_V2);
  });

  test('a version-2 account: the login password is HKDF "login" of argon2id; it unlocks with its passwordSalt', async () => {
    const derived = await derivePasswordKeysV2(PASSWORD, regV2.passwordSalt, KDF_V2);
    expect(regV2.password).toBe(derived.loginPassword);
    expect(await deriveLoginPassword(PASSWORD, regV2.passwordSalt, regV2.kdf)).toBe(regV2.password);
    // Neither half reveals the other: the login password is not the wrapping key.
    expect(fromBase64(regV2.password)).not.toEqual(derived.wrappingKeyBits);
    const keys = await unlockAccount(PASSWORD, regV2);
    expect(keys.publicKey).toBe(regV2.publicKey);
    const id = newItemId();
    const key = newItemKey();
    const wrapped = await wrapItemKey(rootV2, id, key);
    expect(await unwrapItemKey(keys.rootKey, id, wrapped.encryptedKey, wrapped.keyNonce)).toEqual(key);
    // The wrapping key made with the login password serves the unlock (one argon2id per sign-in).
    const { wrappingKey } = await passwordKeys(PASSWORD, regV2);
    const again = await unlockAccount(PASSWORD, { ...regV2, passwordSalt: undefined }, { wrappingKey });
    expect(again.signingPublicKey).toBe(regV2.signingPublicKey);
  }, 30_000);

  test('a version-2 account refuses a wrong password, another passwordSalt, and needs the salt it was sealed with', async () => {
    await expectCode(unlockAccount('wrong password!', regV2), 'DECRYPT_FAILED');
    await expectCode(unlockAccount(PASSWORD, { ...regV2, passwordSalt: regV1.passwordSalt }), 'DECRYPT_FAILED');
    await expectCode(unlockAccount(PASSWORD, { ...regV2, passwordSalt: undefined }), 'BAD_INPUT');
  }, 30_000);

  test('downgrade: a server claiming version 1 (or weaker version-2 parameters) for a version-2 account opens nothing', async () => {
    // The bundle opens only under the wrapping key of the version it was sealed with.
    await expectCode(unlockAccount(PASSWORD, { ...regV2, kdf: KDF_V1 }), 'DECRYPT_FAILED');
    await expectCode(unlockAccount(PASSWORD, { ...regV2, kdf: v2({ iterations: 2, memoryKiB: 19 * 1024 }) }), 'DECRYPT_FAILED');
    await expectCode(upgradeAccount(PASSWORD, { ...regV2, kdf: KDF_V1 }), 'DECRYPT_FAILED');
    // And the other way: version 2 claimed for a version-1 account.
    await expectCode(unlockAccount(PASSWORD, { ...regV1, kdf: KDF_V2 }), 'DECRYPT_FAILED');
  }, 30_000);

  test('upgrade: the same key pairs and root key, re-sealed under version 2 with fresh salts and iv', async () => {
    const { keys, upgrade } = await upgradeAccount(PASSWORD, regV1);
    expect(keys.publicKey).toBe(regV1.publicKey);
    expect(upgrade.kdf).toEqual(KDF_V2);
    expect(upgrade.passwordSalt).not.toBe(regV1.passwordSalt);
    expect(upgrade.salt).not.toBe(regV1.salt);
    expect(upgrade.iv).not.toBe(regV1.iv);
    expect(upgrade.encryptedPrivateKey).not.toBe(regV1.encryptedPrivateKey);
    expect(upgrade.password).toBe(await deriveLoginPassword(PASSWORD, upgrade.passwordSalt, KDF_V2));
    expect(upgrade.password).not.toBe(regV1.password);

    const after = await unlockAccount(PASSWORD, {
      ...upgrade,
      publicKey: regV1.publicKey,
      signingPublicKey: regV1.signingPublicKey,
    });
    expect(after.publicKey).toBe(regV1.publicKey);
    expect(after.signingPublicKey).toBe(regV1.signingPublicKey);
    // A key wrapped under the version-1 root key opens under the upgraded account's.
    const id = newItemId();
    const key = newItemKey();
    const wrapped = await wrapItemKey(rootV1, id, key);
    expect(await unwrapItemKey(after.rootKey, id, wrapped.encryptedKey, wrapped.keyNonce)).toEqual(key);
    // Until the server replaces it, the version-1 record still opens: nothing is lost if the call fails.
    expect((await unlockAccount(PASSWORD, regV1)).publicKey).toBe(regV1.publicKey);
    // The upgraded record does not open as version 1.
    await expectCode(unlockAccount(PASSWORD, { ...upgrade, kdf: KDF_V1 }), 'DECRYPT_FAILED');
  }, 60_000);

  test('upgrade refuses a wrong password, swapped public keys and a target below the floor', async () => {
    await expectCode(upgradeAccount('wrong password!', regV1), 'DECRYPT_FAILED');
    await expectCode(upgradeAccount(PASSWORD, { ...regV1, publicKey: regV2.publicKey }), 'KEY_CHANGED');
    await expectCode(upgradeAccount(PASSWORD, regV1, v2({ memoryKiB: 1024 })), 'KDF_TOO_WEAK');
  }, 30_000);
});
