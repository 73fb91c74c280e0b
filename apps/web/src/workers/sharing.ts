/**
 * Sharing inside the crypto worker (docs/protocol.md, docs/protocol.md "Sharing"): the keys of other
 * users pinned on first use, grants made and checked, and the keys of items shared with the
 * signed-in user. Every K stays here; the page gets fingerprints, signatures and views.
 *
 * Pins travel with the account: sealed under the account root key and stored by the server
 * (GET/PUT /api/profile/pins), written compare-and-set so two devices pinning at once both land.
 */
import { SHARE_WITH_SELF_TEXT } from '@sealbox/rules';
import {
  type AccountKeys,
  type Pins,
  CryptoError,
  encodeLinkKey,
  fingerprint,
  formatFingerprint,
  openPins,
  sealPins,
  signGrant,
  unwrapKeyFromUser,
  verifyGrant,
  wrapKeyForUser,
} from '@sealbox/crypto';
import { answered } from '../lib/api-client.ts';
import { OWN_SCOPE, SHARED_SCOPE } from '../model/browse-scope.ts';
import type { ItemView, ServerItem } from '../model/items.ts';
import { api } from './api.ts';
import { CodedError } from './coded-error.ts';
import { openItems } from './items.ts';
import { keyOnDemand } from './key-on-demand.ts';
import { currentAccount, dropRoot, heldRoot, openRoot } from './key-rings.ts';

/** The public half of a user, as GET /api/user/{id} and the user search answer it. */
export interface PublicKeys {
  id: string;
  publicKey: string;
  signingPublicKey: string;
}

/** How a user's current keys compare with the pin (fingerprints in the grouped form shown). */
export interface PinState {
  fingerprint: string;
  pinned: string | null;
  status: 'first-use' | 'match' | 'changed';
}

/** One entry of GET /api/shared: the item and the grant that gave it to the signed-in user. */
type SharedEntry = ServerItem & {
  grant: { itemId: string; userId: string; editPermission: boolean; encryptedKey: string; signature: string; sharerId: string };
};

const sharingError = (code: string, message: string) => new CodedError('SharingError', code, message);

/** Pins read within this long are reused by listings (a share or a pin always reads them fresh). */
const PINS_FRESH_MS = 30_000;
let pinsCache: { ownerId: string; pins: Pins; version: number; readAt: number } | undefined;

async function signedIn(): Promise<{ userId: string; keys: AccountKeys }> {
  const me = await currentAccount();
  if (!me) throw sharingError('NO_KEY', 'The account keys are not unlocked in this browser');
  return me;
}

async function readPins(me: { userId: string; keys: AccountKeys }, maxAgeMs = 0): Promise<{ pins: Pins; version: number }> {
  if (pinsCache && pinsCache.ownerId === me.userId && Date.now() - pinsCache.readAt <= maxAgeMs) return pinsCache;
  const { data, status } = await answered(api.api.profile.pins.get());
  if (!data) throw sharingError(`HTTP_${status}`, `Reading the key pins failed (${status})`);
  // Pins that do not open were altered or swapped: refuse to trust anything rather than
  // silently starting again from first use, which would let a key swap through.
  const pins = data.sealed && data.nonce ? await openPins(me.keys.rootKey, me.userId, data.sealed, data.nonce) : {};
  pinsCache = { ownerId: me.userId, pins, version: data.version, readAt: Date.now() };
  return pinsCache;
}

/** Pins `userId` to `hex`, merging with whatever another device wrote meanwhile. */
async function writePin(me: { userId: string; keys: AccountKeys }, userId: string, hex: string): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const current = await readPins(me);
    if (current.pins[userId] === hex) return;
    const pins = { ...current.pins, [userId]: hex };
    const sealed = await sealPins(me.keys.rootKey, me.userId, pins);
    const { data, status } = await answered(api.api.profile.pins.put({ ...sealed, version: current.version }));
    if (data) {
      pinsCache = { ownerId: me.userId, pins, version: data.version, readAt: Date.now() };
      return;
    }
    pinsCache = undefined;
    if (status !== 409) throw sharingError(`HTTP_${status}`, `Saving the key pin failed (${status})`);
  }
  throw sharingError('HTTP_409', 'The key pins kept changing on another device');
}

async function fingerprintOf(user: PublicKeys): Promise<string> {
  return fingerprint(user.publicKey, user.signingPublicKey);
}

async function pinStatus(user: PublicKeys): Promise<PinState> {
  const me = await signedIn();
  const [hex, { pins }] = await Promise.all([fingerprintOf(user), readPins(me)]);
  const pinned = pins[user.id];
  return {
    fingerprint: formatFingerprint(hex),
    pinned: pinned ? formatFingerprint(pinned) : null,
    status: pinned === undefined ? 'first-use' : pinned === hex ? 'match' : 'changed',
  };
}

/**
 * Pins the user's current keys: on first use, or after the signed-in user compared the
 * fingerprints and confirmed a changed key (`expected` is the fingerprint they saw, so a key
 * swapped again between showing and confirming is not pinned).
 */
async function trustKeys(user: PublicKeys, expected: string): Promise<void> {
  const me = await signedIn();
  const hex = await fingerprintOf(user);
  if (formatFingerprint(hex) !== expected) throw new CryptoError('KEY_CHANGED', 'The keys changed again; compare them once more');
  await writePin(me, user.id, hex);
}

/** Refuses keys that differ from the pin; pins them on first use. */
async function checkedKeys(me: { userId: string; keys: AccountKeys }, user: PublicKeys): Promise<void> {
  if (user.id === me.userId) throw new CryptoError('BAD_INPUT', SHARE_WITH_SELF_TEXT);
  const [hex, { pins }] = await Promise.all([fingerprintOf(user), readPins(me)]);
  const pinned = pins[user.id];
  if (pinned === undefined) await writePin(me, user.id, hex);
  else if (pinned !== hex) throw new CryptoError('KEY_CHANGED', 'This user’s keys changed since you first saw them');
}

/**
 * K of the signed-in user's own item `itemId`, from the own ring (docs/protocol.md "Key rings"):
 * only an owner shares, and only a key opened from the account root key down is shared, never one
 * a grant or a link handed over. Opened on demand when this tab has not listed it yet, e.g. the
 * owner sharing from their own link's page.
 */
function ownItemKey(itemId: string): Promise<Uint8Array> {
  return keyOnDemand(OWN_SCOPE, itemId, sharingError);
}

/**
 * A grant of `itemId` to `user` signed by the signed-in sharer. The recipient's keys are checked
 * against the pinned ones before `wrappedKey` is asked for, so no key is wrapped to a substitute.
 */
async function signedGrant(
  itemId: string,
  user: PublicKeys,
  edit: boolean,
  wrappedKey: () => Promise<string>,
): Promise<{ encryptedKey: string; signature: string }> {
  const me = await signedIn();
  await checkedKeys(me, user);
  const encryptedKey = await wrappedKey();
  const signature = await signGrant(me.keys.signingPrivateKey, {
    sharerId: me.userId,
    recipientId: user.id,
    itemId,
    encryptedKey,
    edit,
  });
  return { encryptedKey, signature };
}

/** POST /api/share type user: K of `itemId` wrapped to the recipient's pinned key, and signed. */
function grantFor(itemId: string, user: PublicKeys, edit: boolean): Promise<{ encryptedKey: string; signature: string }> {
  return signedGrant(itemId, user, edit, async () => wrapKeyForUser(user.publicKey, await ownItemKey(itemId)));
}

/** PUT /api/share type user: the existing wrapped key signed again with the new edit flag. */
async function regrant(itemId: string, user: PublicKeys, encryptedKey: string, edit: boolean): Promise<{ signature: string }> {
  const { signature } = await signedGrant(itemId, user, edit, async () => encryptedKey);
  return { signature };
}

/** The URL fragment of a share link to the user's own `itemId`: its K (docs/protocol.md "Share links"); it never reaches the server. */
async function linkFragment(itemId: string): Promise<string> {
  return encodeLinkKey(await ownItemKey(itemId));
}

/** The grant memo: what each held root was opened from, so an unchanged refresh skips RSA. */
const opened = new Map<string, string>();

async function sharerKeys(ids: string[]): Promise<Map<string, PublicKeys>> {
  const found = new Map<string, PublicKeys>();
  await Promise.all(
    ids.map(async (id) => {
      const { data } = await answered(api.api.user({ id }).get()).catch(() => ({ data: undefined }));
      if (data && typeof data.publicKey === 'string' && typeof data.signingPublicKey === 'string') found.set(id, data);
    }),
  );
  return found;
}

/** The progress port is told after every this many grants opened. */
const GRANT_REPORT = 50;

/** Who is signed in, the sharers' keys and whether each sharer's fingerprint matches the pin. */
interface GrantContext {
  me: { userId: string; keys: AccountKeys };
  keysOf: Map<string, PublicKeys>;
  prints: Map<string, { hex: string; trusted: boolean }>;
}

/**
 * Opens one grant into the shared ring. Answers 'refused' when it must not be held (the user's
 * own item, or an id a ring holds under another key), else nothing: a grant that does not
 * verify still opens, untrusted; one not wrapped for this user stays closed.
 */
async function openGrant(entry: SharedEntry, { me, keysOf, prints }: GrantContext): Promise<'refused' | undefined> {
  const grant = entry.grant;
  if (!grant || typeof grant.encryptedKey !== 'string') return;
  // The user's own item is never opened with a key from outside their tree.
  if (entry.ownerId === me.userId) return 'refused';
  const sharer = prints.get(grant.sharerId);
  const memo = `${grant.encryptedKey}|${grant.signature}|${grant.editPermission}|${grant.sharerId}|${entry.ownerId}|${sharer?.hex}`;
  if (opened.get(entry.id) === memo && heldRoot(SHARED_SCOPE, entry.id)) return;
  let trusted = false;
  const keys = keysOf.get(grant.sharerId);
  if (keys && sharer?.trusted && grant.sharerId === entry.ownerId && grant.userId === me.userId && grant.itemId === entry.id) {
    trusted = await verifyGrant(
      keys.signingPublicKey,
      {
        sharerId: grant.sharerId,
        recipientId: me.userId,
        itemId: entry.id,
        encryptedKey: grant.encryptedKey,
        edit: grant.editPermission,
      },
      grant.signature,
    ).then(
      () => true,
      () => false,
    );
  }
  let raw: Uint8Array;
  try {
    raw = await unwrapKeyFromUser(me.keys.encryptionPrivateKey, grant.encryptedKey);
  } catch {
    // Not wrapped for this user: the item shows as not decrypted.
    return;
  }
  const held = openRoot(SHARED_SCOPE, entry.id, raw, 'grant', trusted);
  raw.fill(0);
  if (!held) return 'refused';
  opened.set(entry.id, memo);
}

/** The sharers of `entries`: their keys, fetched, and their fingerprints against the pins (pinned on first use). */
async function grantContext(entries: readonly SharedEntry[]): Promise<GrantContext> {
  const me = await signedIn();
  const { pins } = await readPins(me, PINS_FRESH_MS);
  const sharerIds = [...new Set(entries.map((entry) => entry.grant?.sharerId).filter((id) => typeof id === 'string'))];
  const keysOf = await sharerKeys(sharerIds);
  const prints = new Map<string, { hex: string; trusted: boolean }>();
  for (const id of sharerIds) {
    const keys = keysOf.get(id);
    if (!keys) continue;
    const hex = await fingerprintOf(keys);
    const pinned = pins[id];
    if (pinned === undefined) await writePin(me, id, hex).catch(() => undefined);
    prints.set(id, { hex, trusted: pinned === undefined || pinned === hex });
  }
  return { me, keysOf, prints };
}

/**
 * Opens GET /api/shared's answer into the shared ring (docs/protocol.md "Key rings"): each grant
 * is checked against the sharer's pinned keys (pinned on first use) and its K unwrapped with this
 * user's RSA key. A grant is honoured only when its signature verifies and its sharer is the
 * item's owner, who is not the signed-in user (only owners share). One that does not verify still
 * opens (so the user sees what it claims to be) but comes back `untrusted`: warned about and
 * never a parent for new keys. One that names the user's own item, or an item some ring already
 * holds under another key, is refused: nothing is held, and the row shows as unverified.
 * A grant opened before and unchanged costs no RSA (the memo), so the page can ask for the first
 * shares, then all of them (docs/web-files.md "Opening a large folder"). With `progress`, posts
 * `{ opened, total }` there after each slice of grants, then closes it.
 */
async function openShared(body: ArrayBuffer, progress?: MessagePort): Promise<{ files: ItemView[]; users: unknown[] }> {
  try {
    let parsed: { files?: SharedEntry[]; users?: unknown[] };
    try {
      parsed = JSON.parse(new TextDecoder().decode(body));
    } catch {
      throw new CryptoError('BAD_INPUT', 'The shared listing is not JSON');
    }
    const entries = Array.isArray(parsed.files) ? parsed.files : [];
    const context = await grantContext(entries);
    const refused = new Set<string>();
    let done = 0;
    // All at once, so the engine's crypto threads never wait (slices of 50, each waiting for its
    // slowest grant, were slower in bench/big-account); the page is told every GRANT_REPORT.
    await Promise.all(
      entries.map(async (entry) => {
        if ((await openGrant(entry, context)) === 'refused') refused.add(entry.id);
        done++;
        if (done % GRANT_REPORT === 0 || done === entries.length) progress?.postMessage({ opened: done, total: entries.length });
      }),
    );
    for (const id of refused) dropRoot(SHARED_SCOPE, id);
    const views = await openItems(
      SHARED_SCOPE,
      entries.map(({ grant: _grant, ...item }) => item as ServerItem),
    );
    const files = views.map((view) => (refused.has(view.id) ? { ...view, untrusted: true as const } : view));
    return { files, users: Array.isArray(parsed.users) ? parsed.users : [] };
  } finally {
    progress?.close();
  }
}

/** The RPC surface the crypto worker exposes (spread into its methods object). */
export const sharingMethods = {
  pinStatus,
  trustKeys,
  grantFor,
  regrant,
  linkFragment,
  openShared,
};
