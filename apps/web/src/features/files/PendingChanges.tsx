/**
 * Changes waiting for the network (issue 14): while the browser is offline TanStack Query holds
 * them back; this bar says so and lists them until they are sent.
 */
import { useMutationState, useQueryClient } from '@tanstack/react-query';
import { FILES_CHANGE_KEY } from '../items/index.ts';
import { describeChange } from './mutations.ts';
import './browser-frame.css';

export const WAITING_FOR_NETWORK_TEXT = 'Waiting for the network…';

export function PendingChanges() {
  const queryClient = useQueryClient();
  const waiting = useMutationState({
    filters: { mutationKey: FILES_CHANGE_KEY, status: 'pending', predicate: (m) => m.state.isPaused },
    select: (mutation) => describeChange(queryClient, mutation),
  });
  return (
    <div className="pending-changes" role="status" aria-live="polite">
      {waiting.length > 0 && (
        <>
          <strong className="pending-changes__title">{WAITING_FOR_NETWORK_TEXT}</strong>
          <span className="pending-changes__text">
            {waiting.length === 1 ? '1 change will be sent' : `${waiting.length} changes will be sent`} when the connection is
            back:
          </span>
          <ul className="pending-changes__list" aria-label="Waiting changes">
            {waiting.map((text, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the same change may be queued twice; the order is the queue's
              <li key={index}>{text}</li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
