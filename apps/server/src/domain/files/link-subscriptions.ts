import type { FilesReader } from '../../ports/files.ts';
import type { FilesDeps } from './deps.ts';
import { usableLink, validProof } from './link-access.ts';
import { linkNotFound } from './links.ts';

/**
 * A link's live sockets (GET /api/ws?linkId=): who may subscribe through a link, and whether a
 * socket so admitted may stay as the link changes or time passes (the live hub asks).
 */

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
