/**
 * One tamper test per rule of docs/protocol.md, for what is shared: grants to users, the pinned
 * keys that vouch for them, and share-link keys. Each names the attack class it stops (items:
 * tamper-items.test.ts; accounts: tamper-accounts.test.ts).
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { toBase64, toBase64Url } from '../src/bytes.ts';
import { createAccount } from '../src/account.ts';
import { newItemId, newItemKey } from '../src/item.ts';
import { type ShareGrant, signGrant, unwrapKeyFromUser, verifyGrant, wrapKeyForUser } from '../src/share.ts';
import { checkPinnedKey, fingerprint } from '../src/fingerprint.ts';
import { decodeLinkKey, encodeLinkKey } from '../src/link.ts';
import { openPins, sealPins } from '../src/pins.ts';
import { expectCode, flips } from './tamper-checks.ts';

const key = newItemKey();
const id = newItemId();
const otherId = newItemId();

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
