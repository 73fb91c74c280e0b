import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Spinner, toast } from '@sealbox/ui';
import { blocksQueryOptions, sharingKeys, unblockAccount } from '../sharing/index.ts';
import { formatDateTime } from './format.ts';
import './profile.css';

export const NO_BLOCKS_TEXT = 'You have not blocked anyone.';

/**
 * Accounts whose shares the user blocked from /shared (docs/protocol.md "Blocked accounts"),
 * each with Unblock: their shares, hidden meanwhile, come back.
 */
export function BlockedAccountsSection() {
  const queryClient = useQueryClient();
  const blocks = useQuery(blocksQueryOptions());
  const unblock = useMutation({
    mutationFn: unblockAccount,
    onSuccess: () => toast('Unblocked. Their shares are back in Shared with me.', 'success'),
    onError: () => toast('Could not unblock that account. Please try again.', 'error'),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: sharingKeys.blocks, exact: true });
      void queryClient.invalidateQueries({ queryKey: sharingKeys.shared });
    },
  });

  return (
    <section className="profile-section" aria-labelledby="blocked-title">
      <h2 id="blocked-title">Blocked accounts</h2>
      <p className="muted">Shares from these accounts are hidden from Shared with me, and their changes are not announced.</p>
      {blocks.isPending ? (
        <Spinner label="Loading blocked accounts" />
      ) : blocks.isError ? (
        <p className="form__error">Could not load your blocked accounts.</p>
      ) : blocks.data.length === 0 ? (
        <p className="muted">{NO_BLOCKS_TEXT}</p>
      ) : (
        <ul className="session-list">
          {blocks.data.map((block) => (
            <li key={block.userId} className="session-list__item">
              <div className="session-list__info">
                <strong>{block.username ?? 'Unknown account'}</strong>
                <span className="muted session-list__times">Blocked {formatDateTime(block.createdAt)}</span>
              </div>
              <Button
                size="sm"
                variant="secondary"
                aria-label={`Unblock ${block.username ?? 'this account'}`}
                disabled={unblock.isPending && unblock.variables === block.userId}
                onClick={() => unblock.mutate(block.userId)}
              >
                Unblock
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
