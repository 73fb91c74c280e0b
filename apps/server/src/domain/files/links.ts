import { LINK_PASSWORD_PROMPT_TEXT, LINK_PASSWORD_WRONG_TEXT } from '@sealbox/rules';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FilesReader, FilesTransaction, LinkRecord } from '../../ports/files.ts';
import { DomainError } from '../errors.ts';
import { accessPath, notFound, type LinkPrincipal } from './access.ts';
import type { FilesDeps, FilesPorts } from './deps.ts';
import { linkEvent } from './events.ts';
import { ownedItem } from './sharing.ts';
import { endLinkUploads } from './unfinished.ts';
import { invalid, isLinkId, linkId as checkLinkId, uuid } from './validation.ts';

/**
 * Share links (docs/product.md "Roles"; docs/protocol.md "HTTP endpoints" and "Share links"). A
 * link names one item; its holders act with its permission on that item and below it. The key is in
 * the URL fragment and never reaches the server. Link ids are 128 random bits; a missing, expired
 * or unreachable link answers exactly like one that never existed. A password is a server-side
 * gate: argon2id here, checked under rate limits, and once right it gives an access proof for that
 * link alone, good for one password epoch (any change to the password voids every proof) and at
 * most a day.
 */

/** What the owner and a visitor see of a link (docs/protocol.md "Items" "Share link"). */
export interface LinkView {
  linkId: string;
  itemId: string;
  editPermission: boolean;
  /** Epoch ms; null: never. */
  expiresAt: number | null;
  passwordProtected: boolean;
  createdAt: number;
  modifiedAt: number;
}

/** GET /api/shared/{linkId}: the link and whether its item is a folder. */
export type LinkInfo = LinkView & { isDirectory: boolean };

/** 100 years: "never" is 0, anything longer is a typing mistake. */
export const MAX_LINK_EXPIRY_SECONDS = 3_155_760_000;
export const MAX_LINK_PASSWORD_CHARS = 1024;
/** An access proof lasts this long (or until the link expires, if sooner). */
export const LINK_PROOF_LIFETIME_MS = 24 * 60 * 60 * 1000;

const linkNotFound = () => notFound('Link');

function toLinkView(link: LinkRecord): LinkView {
  return {
    linkId: link.id,
    itemId: link.itemId,
    editPermission: link.edit,
    expiresAt: link.expiresAt,
    passwordProtected: link.passwordHash !== null,
    createdAt: link.createdAt,
    modifiedAt: link.modifiedAt,
  };
}

/** 128 random bits, unpadded base64url. */
export function newLinkId(): string {
  return randomBytes(16).toString('base64url');
}

function hashLinkPassword(password: string): Promise<string> {
  return Bun.password.hash(password, { algorithm: 'argon2id', memoryCost: 19456, timeCost: 2 });
}

/** A password to set: text of 1 to MAX_LINK_PASSWORD_CHARS characters, not only spaces. */
function newPassword(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '' || value.length > MAX_LINK_PASSWORD_CHARS) {
    throw invalid(`password must be 1 to ${MAX_LINK_PASSWORD_CHARS} characters, not only spaces`);
  }
  return value;
}

const expired = (link: LinkRecord, now: number) => link.expiresAt !== null && link.expiresAt <= now;

/** The owner's link, to change or delete; a link of an item the caller does not own is 404/403. */
async function ownedLink(reader: FilesReader, callerId: string, id: string): Promise<LinkRecord> {
  const link = await reader.link(checkLinkId(id));
  if (!link) throw linkNotFound();
  await ownedItem(reader, callerId, link.itemId);
  return link;
}

/** POST /api/share type link: a new link to an item the caller owns; answers it with its id. */
export async function createLink(
  deps: FilesDeps,
  callerId: string,
  input: { id: string; expires: number; password?: string | null | undefined; edit: boolean },
): Promise<LinkView> {
  const itemId = uuid(input.id, 'id');
  const expires = input.expires;
  if (!Number.isSafeInteger(expires) || expires < 0 || expires > MAX_LINK_EXPIRY_SECONDS) {
    throw invalid(`expires must be 0 (never) to ${MAX_LINK_EXPIRY_SECONDS} seconds`);
  }
  if (typeof input.edit !== 'boolean') throw invalid('edit must be a boolean');
  const password = input.password === undefined || input.password === null ? null : newPassword(input.password);
  await deps.limiter.hit('shareAccount', callerId);
  await ownedItem(deps.store, callerId, itemId);
  const passwordHash = password === null ? null : await hashLinkPassword(password);
  return deps.store.transaction(async (tx) => {
    const item = await ownedItem(tx, callerId, itemId);
    const now = deps.clock();
    const link: LinkRecord = {
      id: newLinkId(),
      itemId,
      edit: input.edit,
      passwordHash,
      passwordEpoch: 0,
      expiresAt: expires === 0 ? null : now + expires * 1000,
      createdAt: now,
      modifiedAt: now,
    };
    await tx.insertLink(link);
    tx.publish(linkEvent('link.created', item, link));
    return toLinkView(link);
  });
}

/**
 * PUT /api/share type link: `edit` switches viewer/editor; `password` sets or changes it (a
 * string) or removes it (null). Any password change bumps the epoch, so every proof made before
 * is void; setting or changing it also closes the link's sockets (event `link.password`).
 * Switched to viewer, the uploads started through it end at once (unfinished.ts).
 */
export async function changeLink(
  deps: FilesDeps,
  callerId: string,
  input: { linkId: string; edit?: boolean | undefined; password?: string | null | undefined },
): Promise<LinkView> {
  checkLinkId(input.linkId);
  if (input.edit === undefined && input.password === undefined) throw invalid('Send edit, password or both');
  if (input.edit !== undefined && typeof input.edit !== 'boolean') throw invalid('edit must be a boolean');
  const password = input.password === undefined || input.password === null ? input.password : newPassword(input.password);
  await deps.limiter.hit('shareAccount', callerId);
  await ownedLink(deps.store, callerId, input.linkId);
  const passwordHash = typeof password === 'string' ? await hashLinkPassword(password) : password;
  return deps.store.transaction(async (tx) => {
    const link = await lockedLink(tx, callerId, input.linkId);
    const item = (await tx.item(link.itemId))!;
    const changed: LinkRecord = { ...link, modifiedAt: deps.clock() };
    if (input.edit === false) await endLinkUploads(deps, tx, link.id);
    if (input.edit !== undefined) changed.edit = input.edit;
    const passwordChanged = passwordHash !== undefined && !(passwordHash === null && link.passwordHash === null);
    if (passwordChanged) {
      changed.passwordHash = passwordHash;
      changed.passwordEpoch = link.passwordEpoch + 1;
    }
    await tx.updateLink(link.id, {
      edit: changed.edit,
      passwordHash: changed.passwordHash,
      passwordEpoch: changed.passwordEpoch,
      modifiedAt: changed.modifiedAt,
    });
    if (passwordChanged && changed.passwordHash !== null) tx.publish(linkEvent('link.password', item, changed));
    else tx.publish(linkEvent('link.changed', item, changed));
    return toLinkView(changed);
  });
}

/**
 * The owner's link, read again under the owner's lock: ending the uploads started through it
 * frees the owner's space, which only happens under that lock (quota.ts).
 */
async function lockedLink(tx: FilesTransaction, callerId: string, id: string): Promise<LinkRecord> {
  await ownedLink(tx, callerId, id);
  await tx.lockOwner(callerId);
  return ownedLink(tx, callerId, id);
}

/**
 * DELETE /api/shared type link: the owner deletes it; its proofs and sockets die with it, and so
 * do the uploads started through it.
 */
export async function deleteLink(deps: FilesDeps, callerId: string, id: string): Promise<void> {
  await deps.store.transaction(async (tx) => {
    const link = await lockedLink(tx, callerId, id);
    const item = (await tx.item(link.itemId))!;
    await endLinkUploads(deps, tx, link.id);
    if (!(await tx.deleteLink(link.id))) throw linkNotFound();
    tx.publish(linkEvent('link.deleted', item, link));
  });
}

/**
 * The periodic sweep's part: expired links already answer 404 everywhere; this deletes their
 * rows and publishes link.deleted, as an owner's delete does, so their live sockets close.
 * Each link is read again in its own transaction: one changed to a later expiry, or deleted by
 * someone else (another instance's sweep) in the meantime, is left alone and not counted. The
 * uploads started through an expired link (refused since it expired) end with it.
 */
export async function expireLinks(deps: FilesPorts): Promise<number> {
  let count = 0;
  for (;;) {
    const batch = await deps.store.expiredLinks(deps.clock(), 100);
    if (batch.length === 0) return count;
    let progressed = false;
    for (const found of batch) {
      const deleted = await deps.store.transaction(async (tx) => {
        const item = await tx.item(found.itemId);
        if (item) await tx.lockOwner(item.ownerId);
        const link = await tx.link(found.id);
        if (!link || !expired(link, deps.clock())) return false;
        await endLinkUploads(deps, tx, link.id);
        if (!(await tx.deleteLink(link.id))) return false;
        if (item) tx.publish(linkEvent('link.deleted', item, link));
        return true;
      });
      if (deleted) {
        count++;
        progressed = true;
      }
    }
    if (!progressed) return count;
  }
}

/** GET /api/shared/{fileId}/links: the owner's links to the item that have not expired, oldest first. */
export async function linksOf(deps: FilesDeps, callerId: string, fileId: string): Promise<LinkView[]> {
  const item = await ownedItem(deps.store, callerId, uuid(fileId, 'fileId'));
  const now = deps.clock();
  return (await deps.store.linksOn([item.id])).filter((link) => !expired(link, now)).map(toLinkView);
}

/**
 * A link that may be used now: well-formed, existing, not expired, and its item visible through
 * it (ready, not in a folder being deleted), password aside. Anything else is NOT_FOUND, alike.
 */
async function usableLink(deps: FilesDeps, raw: unknown, now: number): Promise<{ link: LinkRecord; isDirectory: boolean }> {
  if (!isLinkId(raw)) throw linkNotFound();
  const link = await deps.store.link(raw);
  if (!link || expired(link, now)) throw linkNotFound();
  const item = await deps.store.item(link.itemId);
  const unlocked: LinkPrincipal = {
    kind: 'link',
    linkId: link.id,
    userId: null,
    at: now,
    proofEpoch: link.passwordEpoch,
    address: '',
  };
  if (!item || !(await accessPath(deps.store, unlocked, item))) throw linkNotFound();
  return { link, isDirectory: item.isDirectory };
}

function proofMac(link: LinkRecord, epoch: number, expiresAt: number): string {
  // Keyed by the password's own hash (salted, server-side, new at every change).
  return createHmac('sha256', link.passwordHash ?? '')
    .update(`sealbox:v1:link-proof\0${link.id}\0${epoch}\0${expiresAt}`)
    .digest('base64url');
}

/** `${epoch}.${expiresAt}.${mac}`: the link's access proof (an HttpOnly cookie named for the link). */
function makeProof(link: LinkRecord, now: number): { value: string; maxAgeMs: number } {
  const expiresAt = Math.min(now + LINK_PROOF_LIFETIME_MS, link.expiresAt ?? Number.POSITIVE_INFINITY);
  return {
    value: `${link.passwordEpoch}.${expiresAt}.${proofMac(link, link.passwordEpoch, expiresAt)}`,
    maxAgeMs: expiresAt - now,
  };
}

/** The epoch a proof was made for, if it is this link's, for its current password, and unexpired. */
function provenEpoch(link: LinkRecord, proof: string | undefined, now: number): number | null {
  return validProof(link, proof, now)?.epoch ?? null;
}

function validProof(link: LinkRecord, proof: string | undefined, now: number): { epoch: number; expiresAt: number } | null {
  if (link.passwordHash === null || proof === undefined || proof.length > 200) return null;
  const match = /^(\d{1,15})\.(\d{1,16})\.([A-Za-z0-9_-]{43})$/.exec(proof);
  if (!match) return null;
  const epoch = Number(match[1]);
  const expiresAt = Number(match[2]);
  if (epoch !== link.passwordEpoch || expiresAt <= now) return null;
  const expected = Buffer.from(proofMac(link, epoch, expiresAt));
  const given = Buffer.from(match[3]!);
  return expected.length === given.length && timingSafeEqual(expected, given) ? { epoch, expiresAt } : null;
}

/** GET /api/shared/{linkId}: 404 for any link that cannot be used, 401 while a password is due. */
export async function linkInfo(deps: FilesDeps, id: unknown, proof: string | undefined): Promise<LinkInfo> {
  const now = deps.clock();
  const { link, isDirectory } = await usableLink(deps, id, now);
  if (link.passwordHash !== null && provenEpoch(link, proof, now) === null) {
    throw new DomainError('UNAUTHORIZED', LINK_PASSWORD_PROMPT_TEXT);
  }
  return { ...toLinkView(link), isDirectory };
}

/**
 * POST /api/shared/{linkId}: checks the password under three limits (every attempt per address,
 * failures per link and address, failures per link from anywhere: slowed, never refused), and
 * answers the link's info with a proof for it. A link without a password needs no proof (null).
 */
export async function openLink(
  deps: FilesDeps,
  id: unknown,
  password: unknown,
  clientIp: string,
): Promise<{ info: LinkInfo; proof: { value: string; maxAgeMs: number } | null }> {
  if (typeof password !== 'string' || password.length === 0 || password.length > MAX_LINK_PASSWORD_CHARS) {
    throw invalid(`password must be 1 to ${MAX_LINK_PASSWORD_CHARS} characters`);
  }
  await deps.limiter.hit('linkPasswordIp', clientIp);
  const { link, isDirectory } = await usableLink(deps, id, deps.clock());
  const info = { ...toLinkView(link), isDirectory };
  if (link.passwordHash === null) return { info, proof: null };
  const atAddress = `${link.id}\0${clientIp}`;
  await deps.limiter.hit('linkPasswordLinkIp', atAddress);
  await deps.limiter.slow('linkPasswordLinkSlow', link.id);
  const right = await Bun.password.verify(password, link.passwordHash).catch(() => false);
  if (!right) throw new DomainError('UNAUTHORIZED', LINK_PASSWORD_WRONG_TEXT);
  await deps.limiter.refund('linkPasswordLinkIp', atAddress);
  await deps.limiter.refund('linkPasswordLinkSlow', link.id);
  // The password may have changed while it was checked: the proof is for the link as it is now.
  const now = deps.clock();
  const current = await deps.store.link(link.id);
  if (!current || expired(current, now)) throw linkNotFound();
  if (current.passwordHash !== link.passwordHash) throw new DomainError('UNAUTHORIZED', LINK_PASSWORD_WRONG_TEXT);
  return { info, proof: makeProof(current, now) };
}

/**
 * The principal of a files call with `?linkId=`: the link must exist, not have expired and,
 * when it has a password, come with a valid proof; anything else is 404 like a missing link.
 * Whether the link reaches the item asked for is decided per item (access.ts).
 */
export async function linkPrincipal(
  deps: FilesDeps,
  id: unknown,
  proof: string | undefined,
  caller: { userId: string | null; address: string },
): Promise<LinkPrincipal> {
  if (!isLinkId(id)) throw linkNotFound();
  const now = deps.clock();
  const link = await deps.store.link(id);
  if (!link || expired(link, now)) throw linkNotFound();
  const proofEpoch = provenEpoch(link, proof, now);
  if (link.passwordHash !== null && proofEpoch === null) throw linkNotFound();
  return { kind: 'link', linkId: link.id, userId: caller.userId, at: now, proofEpoch, address: caller.address };
}

/** What a link's live socket is admitted on, and re-checked against (`linkState`). */
export interface LinkSubscription {
  linkId: string;
  /** The password epoch proven, or null for a link without a password. */
  passwordEpoch: number | null;
  expiresAt: number | null;
  /** When the proof it was admitted on lapses (a password link), else null. */
  proofExpiresAt: number | null;
}

/**
 * GET /api/ws?linkId=: a visitor may subscribe to a link they could open now (usable, and its
 * proof when it has a password); anything else is 404 like a missing link.
 */
export async function linkSubscriber(deps: FilesDeps, id: unknown, proof: string | undefined): Promise<LinkSubscription> {
  const now = deps.clock();
  const { link } = await usableLink(deps, id, now);
  const proven = validProof(link, proof, now);
  if (link.passwordHash !== null && proven === null) throw linkNotFound();
  return {
    linkId: link.id,
    passwordEpoch: proven?.epoch ?? null,
    expiresAt: link.expiresAt,
    proofExpiresAt: proven?.expiresAt ?? null,
  };
}

export interface LinkState {
  expiresAt: number | null;
  passwordEpoch: number;
  passwordProtected: boolean;
}

/** What the live hub re-checks of a link's sockets (after a resync); null once it is gone. */
export async function linkState(reader: FilesReader, id: string): Promise<LinkState | null> {
  const link = await reader.link(id);
  return link
    ? { expiresAt: link.expiresAt, passwordEpoch: link.passwordEpoch, passwordProtected: link.passwordHash !== null }
    : null;
}

/**
 * Whether a socket subscribed as `subscription` may stay: 'ok', or why it must close ('gone': the
 * link was deleted or expired; 'locked': its password changed, or the proof it came with lapsed).
 * Without `state`, only the times known at the subscription are looked at.
 */
export function subscriptionStanding(
  subscription: LinkSubscription,
  state: LinkState | null | undefined,
  now: number,
): 'ok' | 'gone' | 'locked' {
  const expiresAt = state === undefined ? subscription.expiresAt : state?.expiresAt;
  if (state === null || (expiresAt !== null && expiresAt !== undefined && expiresAt <= now)) return 'gone';
  if (state?.passwordProtected && subscription.passwordEpoch !== state.passwordEpoch) return 'locked';
  if (subscription.proofExpiresAt !== null && subscription.proofExpiresAt <= now) return 'locked';
  return 'ok';
}

/** The next moment a subscription's standing may change by time alone, or null. */
export function subscriptionDeadline(subscription: LinkSubscription): number | null {
  const times = [subscription.expiresAt, subscription.proofExpiresAt].filter((t): t is number => t !== null);
  return times.length === 0 ? null : Math.min(...times);
}
