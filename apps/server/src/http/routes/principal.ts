import { DomainError } from '../../domain/errors.ts';
import type { Principal } from '../../domain/files/index.ts';
import type { ActiveSession } from '../../domain/accounts/sessions.ts';
import { SIGN_IN_REQUIRED } from '../plugins/session.ts';

/**
 * Who a files call acts for: the signed-in user, or (once sharing lands) the holder of
 * `linkId`. Until links exist every linkId is unknown, which answers like a missing link: 404.
 */
export async function principalOf(
  currentSession: () => Promise<ActiveSession | null>,
  linkId: string | undefined,
): Promise<Principal> {
  if (linkId !== undefined) throw new DomainError('NOT_FOUND', 'Link not found');
  const found = await currentSession();
  if (!found || found.session.totpPending) throw new DomainError('UNAUTHORIZED', SIGN_IN_REQUIRED);
  return { kind: 'user', userId: found.user.id };
}
