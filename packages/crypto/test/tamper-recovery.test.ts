/**
 * Account safety (docs/protocol.md "Account" and "Recovery phrase"): a password change re-seals
 * only the bundle, and the recovery phrase opens a second copy bound to its user. Each test
 * names the attack or mistake it stops: a copy moved to another user, a tampered copy, a public
 * key swapped by the server, a mistyped phrase, an empty new password.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import vectors from './sealbox-recovery.json';
import { toBase64 } from '../src/bytes.ts';
import { CryptoError } from '../src/errors.ts';
import { KDF_V2, type KdfParamsV2 } from '../src/kdf-v2.ts';
import { deriveLoginPassword } from '../src/kdf.ts';
import {
  type AccountKeys,
  type Registration,
  changeAccountPassword,
  createAccount,
  passwordKeys,
  unlockAccount,
} from '../src/account.ts';
import { newItemId, newItemKey, unwrapItemKey, wrapItemKey } from '../src/item.ts';
import {
  RECOVERY_WORDS,
  type RecoveryInput,
  type RecoverySetup,
  makeRecovery,
  newRecoveryPhrase,
  phraseEntropy,
  recoverAccount,
  recoveryKeys,
  recoveryWordProblem,
} from '../src/recovery.ts';
import { expectCode, expectNothingDerived, flips } from './tamper-checks.ts';

const PASSWORD = 'correct horse battery staple';
const NEW_PASSWORD = 'a brand new password';
/** The floor of version 2: the same code paths as KDF_V2 at a third of the cost, for re-seals. */
const LIGHT: KdfParamsV2 = { version: 2, argon2id: { iterations: 2, memoryKiB: 19 * 1024, parallelism: 1, hashLength: 32 } };
const USER = '0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0';
const OTHER_USER = '0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f1';
const SAMPLE = vectors.vectors.sealedBundle;

async function expectMessage(fn: () => unknown, message: string): Promise<void> {
  let error: unknown;
  try {
    await fn();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(CryptoError);
  expect((error as CryptoError).code).toBe('BAD_INPUT');
  expect((error as CryptoError).message).toBe(message);
}

/** The root key is the same one if an item key wrapped under `before` unwraps under `after`. */
async function expectSameRoot(before: AccountKeys, after: AccountKeys): Promise<void> {
  const id = newItemId();
  const key = newItemKey();
  const wrapped = await wrapItemKey(before.rootKey, id, key);
  expect(toBase64(await unwrapItemKey(after.rootKey, id, wrapped.encryptedKey, wrapped.keyNonce))).toBe(toBase64(key));
  expect(after.publicKey).toBe(before.publicKey);
  expect(after.signingPublicKey).toBe(before.signingPublicKey);
}

let reg: Registration;
let keys: AccountKeys;
let wrappingKey: CryptoKey;

beforeAll(async () => {
  ({ registration: reg, keys, wrappingKey } = await createAccount(PASSWORD, KDF_V2));
}, 60_000);

describe('password change: only the sealed bundle changes', () => {
  test('the old password no longer opens the new record, the new one does, with the same keys', async () => {
    // The current login password, for the server to check, comes from passwordKeys, whose
    // wrapping key then spares changeAccountPassword a second argon2id.
    const current = await passwordKeys(PASSWORD, reg);
    expect(current.loginPassword).toBe(reg.password);
    const { keys: opened, change } = await changeAccountPassword(PASSWORD, reg, NEW_PASSWORD, LIGHT, {
      wrappingKey: current.wrappingKey,
    });
    await expectSameRoot(keys, opened);
    expect(change.kdf).toEqual(LIGHT);
    for (const field of ['passwordSalt', 'salt', 'iv', 'encryptedPrivateKey', 'password'] as const)
      expect(change[field]).not.toBe(reg[field]);
    expect(change.password).toBe(await deriveLoginPassword(NEW_PASSWORD, change.passwordSalt, LIGHT));
    const record = { ...reg, ...change };
    await expectCode(unlockAccount(PASSWORD, record), 'DECRYPT_FAILED');
    await expectSameRoot(keys, await unlockAccount(NEW_PASSWORD, record));
    // Until the server stores the change, the old record still opens with the old password.
    await expectSameRoot(keys, await unlockAccount(PASSWORD, reg, { wrappingKey }));
  }, 60_000);

  test('a wrong current password or a swapped public key changes nothing', async () => {
    await expectCode(changeAccountPassword('wrong password!', reg, NEW_PASSWORD, LIGHT), 'DECRYPT_FAILED');
    const other = await createAccount('another password');
    await expectCode(
      changeAccountPassword(PASSWORD, { ...reg, publicKey: other.registration.publicKey }, NEW_PASSWORD, LIGHT, { wrappingKey }),
      'KEY_CHANGED',
    );
  }, 60_000);

  test('an empty new password or a weak target is refused before anything is derived', async () => {
    await expectNothingDerived(async () => {
      await expectCode(changeAccountPassword(PASSWORD, reg, ''), 'BAD_INPUT');
      await expectCode(changeAccountPassword(PASSWORD, reg, undefined as unknown as string), 'BAD_INPUT');
      await expectCode(changeAccountPassword(PASSWORD, reg, NEW_PASSWORD, { ...LIGHT, version: 1 } as never), 'BAD_INPUT');
      await expectCode(
        changeAccountPassword(PASSWORD, reg, NEW_PASSWORD, { ...LIGHT, argon2id: { ...LIGHT.argon2id, iterations: 1 } }),
        'KDF_TOO_WEAK',
      );
    });
  });
});

describe('recovery phrase as typed', () => {
  const words = SAMPLE.phrase.split(' ');

  test('a fresh phrase is 24 list words that give its entropy back', () => {
    const { phrase, entropy } = newRecoveryPhrase();
    expect(phrase.split(' ')).toHaveLength(24);
    expect(phrase.split(' ').every((w) => RECOVERY_WORDS.includes(w))).toBe(true);
    expect(toBase64(phraseEntropy(phrase))).toBe(toBase64(entropy));
    expect(newRecoveryPhrase().phrase).not.toBe(phrase);
    expect(RECOVERY_WORDS).toHaveLength(2048);
  });

  test('23 words, or 25, or nothing, is refused with the count', async () => {
    await expectMessage(() => phraseEntropy(words.slice(1).join(' ')), 'The recovery phrase has 24 words; this has 23');
    await expectMessage(() => phraseEntropy(`${SAMPLE.phrase} abandon`), 'The recovery phrase has 24 words; this has 25');
    await expectMessage(() => phraseEntropy('   '), 'The recovery phrase has 24 words; this has 0');
  });

  test('a word not in the list is named with its position', async () => {
    const typed = words.map((w, i) => (i === 6 ? 'Foo' : w)).join(' ');
    await expectMessage(() => phraseEntropy(typed), '“foo” (word 7) is not a recovery phrase word');
    expect(recoveryWordProblem('foo', 7)).toBe('“foo” (word 7) is not a recovery phrase word');
    expect(recoveryWordProblem(' Doctor ')).toBeNull();
    expect(recoveryWordProblem('')).toBeNull();
  });

  test('one word changed for another list word fails the checksum', async () => {
    for (const i of [0, 11, 23]) {
      const next = RECOVERY_WORDS[(RECOVERY_WORDS.indexOf(words[i]!) + 1) % 2048]!;
      const typed = words.map((w, j) => (j === i ? next : w)).join(' ');
      await expectMessage(() => phraseEntropy(typed), 'These 24 words are not a valid recovery phrase: check each word');
    }
  });
});

describe('recovery copy of the bundle', () => {
  let setup: RecoverySetup;
  let input: RecoveryInput;

  beforeAll(async () => {
    // Right after registration: createAccount's wrapping key opens the bundle without argon2id.
    setup = await makeRecovery(PASSWORD, reg, USER, { wrappingKey });
    input = { userId: USER, recoverySealed: setup.recoverySealed, recoveryNonce: setup.recoveryNonce };
  }, 60_000);

  test('the phrase gives the recoveryAuth sent with the copy; a new phrase replaces everything', async () => {
    expect((await recoveryKeys(phraseEntropy(setup.phrase))).recoveryAuth).toBe(setup.recoveryAuth);
    const again = await makeRecovery(PASSWORD, reg, USER);
    expect(again.phrase).not.toBe(setup.phrase);
    expect(again.recoveryAuth).not.toBe(setup.recoveryAuth);
    expect(again.recoverySealed).not.toBe(setup.recoverySealed);
    await expectCode(makeRecovery('wrong password!', reg, USER), 'DECRYPT_FAILED');
  }, 60_000);

  test('recovering sets a new password, keeps every key, and the phrase stays valid', async () => {
    const { keys: recovered, reset } = await recoverAccount(
      setup.phrase,
      { ...input, publicKey: reg.publicKey },
      NEW_PASSWORD,
      LIGHT,
    );
    await expectSameRoot(keys, recovered);
    expect(reset.recoveryAuth).toBe(setup.recoveryAuth);
    expect(reset.kdf).toEqual(LIGHT);
    expect(reset.password).toBe(await deriveLoginPassword(NEW_PASSWORD, reset.passwordSalt, LIGHT));
    expect(reset.recoveryNonce).not.toBe(setup.recoveryNonce);
    expect(reset.recoverySealed).not.toBe(setup.recoverySealed);
    const record = { ...reg, ...reset };
    await expectSameRoot(keys, await unlockAccount(NEW_PASSWORD, record));
    await expectCode(unlockAccount(PASSWORD, record), 'DECRYPT_FAILED');
    // The re-sealed copy opens with the same phrase, for the same user.
    const twice = await recoverAccount(setup.phrase, { ...input, ...reset }, PASSWORD, LIGHT);
    await expectSameRoot(keys, twice.keys);
  }, 60_000);

  test('a copy moved to another user does not open', async () => {
    await expectCode(recoverAccount(setup.phrase, { ...input, userId: OTHER_USER }, NEW_PASSWORD, LIGHT), 'DECRYPT_FAILED');
  }, 30_000);

  test('a flipped bit in the copy or its nonce does not open', async () => {
    for (const field of ['recoverySealed', 'recoveryNonce'] as const) {
      for (const bad of flips(input[field]))
        await expectCode(recoverAccount(setup.phrase, { ...input, [field]: bad }, NEW_PASSWORD, LIGHT), 'DECRYPT_FAILED');
    }
  }, 30_000);

  test('another valid phrase does not open it', async () => {
    await expectCode(recoverAccount(SAMPLE.phrase, input, NEW_PASSWORD, LIGHT), 'DECRYPT_FAILED');
  }, 30_000);

  test('a copy whose bundle holds other public keys than the server claims is KEY_CHANGED', async () => {
    const other = await createAccount('another password', LIGHT);
    const theirs = await makeRecovery('another password', other.registration, USER, { wrappingKey: other.wrappingKey });
    // The server hands out a copy it made for keys it holds, claiming this account's public keys.
    const swapped = { ...input, recoverySealed: theirs.recoverySealed, recoveryNonce: theirs.recoveryNonce };
    await expectCode(recoverAccount(theirs.phrase, { ...swapped, publicKey: reg.publicKey }, NEW_PASSWORD, LIGHT), 'KEY_CHANGED');
    await expectCode(
      recoverAccount(theirs.phrase, { ...swapped, signingPublicKey: reg.signingPublicKey }, NEW_PASSWORD, LIGHT),
      'KEY_CHANGED',
    );
    await expectCode(
      recoverAccount(setup.phrase, { ...input, publicKey: other.registration.publicKey }, NEW_PASSWORD, LIGHT),
      'KEY_CHANGED',
    );
  }, 60_000);

  test('an empty new password, a bad phrase or a weak target is refused before anything is derived', async () => {
    await expectNothingDerived(async () => {
      await expectCode(recoverAccount(setup.phrase, input, ''), 'BAD_INPUT');
      await expectCode(recoverAccount(setup.phrase, { ...input, userId: '' }, NEW_PASSWORD), 'BAD_INPUT');
      await expectCode(recoverAccount('abandon abandon', input, NEW_PASSWORD), 'BAD_INPUT');
      await expectCode(recoverAccount(setup.phrase, input, NEW_PASSWORD, { ...LIGHT, version: 1 } as never), 'BAD_INPUT');
    });
  });
});
