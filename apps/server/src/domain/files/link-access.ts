import { LINK_PASSWORD_PROMPT_TEXT, LINK_PASSWORD_WRONG_TEXT } from '@sealbox/rules';
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { LinkRecord } from '../../ports/files.ts';
import { DomainError } from '../errors.ts';
import { accessPath, type LinkPrincipal } from './access.ts';
import type { FilesDeps } from './deps.ts';
import { expired, type LinkInfo, linkNotFound, MAX_LINK_PASSWORD_CHARS, toLinkView } from './links.ts';
import { invalid, isLinkId } from './validation.ts';

/**
 * A visitor's way in through a share link (docs/protocol.md "Share links"). A password is a
 * server-side gate: argon2id (links.ts), checked here under rate limits, and once right it gives
 * an access proof for that link alone, good for one password epoch (any change to the password
 * voids every proof) and at most a day. Anything that cannot be used answers like a missing link.
 */

/** An access proof lasts this long (or until the link expires, if sooner). */
export const LINK_PROOF_LIFETIME_MS = 24 * 60 * 60 * 1000;

/**
 * A link that may be used now: well-formed, existing, not expired, and its item visible through
 * it (ready, not in a folder being deleted), password aside. Anything else is NOT_FOUND, alike.
 */
export async function usableLink(
  deps: FilesDeps,
  raw: unknown,
  now: number,
): Promise<{ link: LinkRecord; isDirectory: boolean; ownerId: string }> {
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
  return { link, isDirectory: item.isDirectory, ownerId: item.ownerId };
}

/**
 * What a visitor is told of a usable link: the link, whether its item is a folder, and the name of
 * the account that shared it (its owner) as the server records it. Only told once the password, if
 * any, is passed. The browser cannot verify that name (docs/protocol.md "Threats").
 */
async function visitorInfo(deps: FilesDeps, usable: { link: LinkRecord; isDirectory: boolean; ownerId: string }) {
  const [owner] = await deps.store.userSummaries([usable.ownerId]);
  return { ...toLinkView(usable.link, deps.clock()), isDirectory: usable.isDirectory, sharedBy: owner?.username ?? null };
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

export function validProof(
  link: LinkRecord,
  proof: string | undefined,
  now: number,
): { epoch: number; expiresAt: number } | null {
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
  const usable = await usableLink(deps, id, now);
  const { link } = usable;
  if (link.passwordHash !== null && provenEpoch(link, proof, now) === null) {
    throw new DomainError('UNAUTHORIZED', LINK_PASSWORD_PROMPT_TEXT);
  }
  return await visitorInfo(deps, usable);
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
  const usable = await usableLink(deps, id, deps.clock());
  const { link } = usable;
  if (link.passwordHash === null) return { info: await visitorInfo(deps, usable), proof: null };
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
  return { info: await visitorInfo(deps, usable), proof: makeProof(current, now) };
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
