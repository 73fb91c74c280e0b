import { EXPIRED_LINK_KEPT_MS, type LinkView } from '@sealbox/rules';
import { randomBytes } from 'node:crypto';
import type { FilesReader, FilesTransaction, ItemRecord, LinkRecord } from '../../ports/files.ts';
import { notFound } from './access.ts';
import type { FilesDeps, FilesPorts } from './deps.ts';
import { linkEvent } from './events.ts';
import { ownedItem } from './sharing.ts';
import { endLinkUploads } from './unfinished.ts';
import { invalid, linkId as checkLinkId, uuid } from './validation.ts';

/**
 * Share links (docs/product.md "Roles"; docs/protocol.md "HTTP endpoints" and "Share links"). A
 * link names one item; its holders act with its permission on that item and below it. The key is in
 * the URL fragment and never reaches the server. Link ids are 128 random bits; a missing, expired
 * or unreachable link answers exactly like one that never existed. This module holds what a link
 * is and what its owner does with it (create, change or renew, delete, list) and the sweep of
 * expired ones; a visitor's way in (password, proofs) is link-access.ts, a link's live sockets
 * link-subscriptions.ts.
 */

export type { LinkView };

/**
 * GET /api/shared/{linkId}: the link, whether its item is a folder, and the username of the account
 * that shared it (null if that account is gone), as the server states it.
 */
export type LinkInfo = LinkView & { isDirectory: boolean; sharedBy: string | null };

/** 100 years: "never" is 0, anything longer is a typing mistake. */
export const MAX_LINK_EXPIRY_SECONDS = 3_155_760_000;
export const MAX_LINK_PASSWORD_CHARS = 1024;

export const linkNotFound = () => notFound('Link');

export function toLinkView(link: LinkRecord, now: number): LinkView {
  return {
    linkId: link.id,
    itemId: link.itemId,
    editPermission: link.edit,
    expiresAt: link.expiresAt,
    passwordProtected: link.passwordHash !== null,
    createdAt: link.createdAt,
    modifiedAt: link.modifiedAt,
    expired: expired(link, now),
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

export const expired = (link: LinkRecord, now: number) => link.expiresAt !== null && link.expiresAt <= now;

/** `expires` of a create or renew: seconds from now, 0 for never. */
function checkExpires(expires: unknown): number {
  if (typeof expires !== 'number' || !Number.isSafeInteger(expires) || expires < 0 || expires > MAX_LINK_EXPIRY_SECONDS) {
    throw invalid(`expires must be 0 (never) to ${MAX_LINK_EXPIRY_SECONDS} seconds`);
  }
  return expires;
}

const expiryAt = (expires: number, now: number) => (expires === 0 ? null : now + expires * 1000);

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
  const expires = checkExpires(input.expires);
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
      expiresAt: expiryAt(expires, now),
      createdAt: now,
      modifiedAt: now,
      endedAt: null,
    };
    await tx.insertLink(link);
    tx.publish(linkEvent('link.created', item, link));
    return toLinkView(link, now);
  });
}

/**
 * PUT /api/share type link: `edit` switches viewer/editor; `password` sets or changes it (a
 * string) or removes it (null); `expires` gives it a new expiry, seconds from now or 0 for never,
 * which also renews an expired link. Any password change bumps the epoch, so every proof made
 * before is void; setting or changing it also closes the link's sockets (event `link.password`).
 * Switched to viewer, the uploads started through it end at once (unfinished.ts).
 */
export async function changeLink(
  deps: FilesDeps,
  callerId: string,
  input: { linkId: string; edit?: boolean | undefined; password?: string | null | undefined; expires?: number | undefined },
): Promise<LinkView> {
  checkLinkId(input.linkId);
  if (input.edit === undefined && input.password === undefined && input.expires === undefined) {
    throw invalid('Send edit, password, expires or several of them');
  }
  if (input.edit !== undefined && typeof input.edit !== 'boolean') throw invalid('edit must be a boolean');
  const expires = input.expires === undefined ? undefined : checkExpires(input.expires);
  const password = input.password === undefined || input.password === null ? input.password : newPassword(input.password);
  await deps.limiter.hit('shareAccount', callerId);
  await ownedLink(deps.store, callerId, input.linkId);
  const passwordHash = typeof password === 'string' ? await hashLinkPassword(password) : password;
  return deps.store.transaction(async (tx) => {
    const link = await lockedLink(tx, callerId, input.linkId);
    const item = (await tx.item(link.itemId))!;
    const now = deps.clock();
    const changed: LinkRecord = { ...link, modifiedAt: now };
    if (input.edit === false) await endLinkUploads(deps, tx, link.id);
    if (input.edit !== undefined) changed.edit = input.edit;
    if (expires !== undefined) {
      changed.expiresAt = expiryAt(expires, now);
      changed.endedAt = null;
    }
    const passwordChanged = passwordHash !== undefined && !(passwordHash === null && link.passwordHash === null);
    if (passwordChanged) {
      changed.passwordHash = passwordHash;
      changed.passwordEpoch = link.passwordEpoch + 1;
    }
    await tx.updateLink(link.id, {
      edit: changed.edit,
      passwordHash: changed.passwordHash,
      passwordEpoch: changed.passwordEpoch,
      expiresAt: changed.expiresAt,
      endedAt: changed.endedAt,
      modifiedAt: changed.modifiedAt,
    });
    if (passwordChanged && changed.passwordHash !== null) tx.publish(linkEvent('link.password', item, changed));
    else tx.publish(linkEvent('link.changed', item, changed));
    return toLinkView(changed, now);
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
 * The periodic sweep's part. Expired links already answer 404 everywhere. Once expired, a link is
 * ended: the uploads started through it (refused since it expired) end, and `link.expired` closes
 * its sockets and tells its owner, who still sees it listed as expired, to renew or delete. It is
 * removed EXPIRED_LINK_KEPT_MS after it expired (`link.deleted`, as an owner's delete). Answers
 * how many links were ended and removed.
 */
export async function expireLinks(deps: FilesPorts): Promise<{ ended: number; removed: number }> {
  const ended = await settleLinks(
    deps,
    (limit) => deps.store.linksToEnd(deps.clock(), limit),
    async (tx, link, item) => {
      const now = deps.clock();
      if (!expired(link, now) || link.endedAt !== null) return false;
      await endLinkUploads(deps, tx, link.id);
      await tx.updateLink(link.id, { endedAt: now });
      if (item) tx.publish(linkEvent('link.expired', item, link));
      return true;
    },
  );
  const removed = await settleLinks(
    deps,
    (limit) => deps.store.linksToRemove(deps.clock() - EXPIRED_LINK_KEPT_MS, limit),
    async (tx, link, item) => {
      if (!expired(link, deps.clock() - EXPIRED_LINK_KEPT_MS)) return false;
      await endLinkUploads(deps, tx, link.id);
      if (!(await tx.deleteLink(link.id))) return false;
      if (item) tx.publish(linkEvent('link.deleted', item, link));
      return true;
    },
  );
  return { ended, removed };
}

/**
 * Each link `find` names, in batches, settled in its own transaction under its owner's lock and
 * read again there: one renewed or deleted in the meantime (by its owner, or another instance's
 * sweep) is left alone and not counted (`settle` answers false).
 */
async function settleLinks(
  deps: FilesPorts,
  find: (limit: number) => Promise<LinkRecord[]>,
  settle: (tx: FilesTransaction, link: LinkRecord, item: ItemRecord | undefined) => Promise<boolean>,
): Promise<number> {
  let count = 0;
  for (;;) {
    const batch = await find(100);
    if (batch.length === 0) return count;
    let progressed = false;
    for (const found of batch) {
      const settled = await deps.store.transaction(async (tx) => {
        const item = await tx.item(found.itemId);
        if (item) await tx.lockOwner(item.ownerId);
        const link = await tx.link(found.id);
        return link ? settle(tx, link, item) : false;
      });
      if (settled) {
        count++;
        progressed = true;
      }
    }
    if (!progressed) return count;
  }
}

/**
 * GET /api/shared/{fileId}/links: the owner's links to the item, oldest first, the expired ones
 * too (marked `expired`) until the sweep removes them.
 */
export async function linksOf(deps: FilesDeps, callerId: string, fileId: string): Promise<LinkView[]> {
  const item = await ownedItem(deps.store, callerId, uuid(fileId, 'fileId'));
  const now = deps.clock();
  return (await deps.store.linksOn([item.id])).map((link) => toLinkView(link, now));
}
