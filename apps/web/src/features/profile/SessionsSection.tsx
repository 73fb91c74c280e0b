import { UNKNOWN_DEVICE_TEXT } from '@sealbox/rules';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Spinner, toast } from '@sealbox/ui';
import { endSession } from '../auth/index.ts';
import { formatDateTime } from './format.ts';
import { SESSIONS_QUERY_KEY, sessionsQueryOptions } from './queries.ts';
import './profile.css';

export function SessionsSection() {
  const queryClient = useQueryClient();
  const sessions = useQuery(sessionsQueryOptions());
  const end = useMutation({
    mutationFn: async (id: string) => {
      const answer = await endSession(id);
      if (!answer.ok && answer.status !== 404) throw new Error(answer.message);
    },
    onSuccess: () => {
      toast('Session ended.', 'success');
    },
    onError: () => toast('Could not end that session. Please try again.', 'error'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: SESSIONS_QUERY_KEY }),
  });

  return (
    <section className="profile-section" aria-labelledby="sessions-title">
      <h2 id="sessions-title">Sessions</h2>
      <p className="muted">Browsers signed in to your account. End any you do not recognise.</p>
      {sessions.isPending ? (
        <Spinner label="Loading sessions" />
      ) : sessions.isError ? (
        <p className="form__error">Could not load your sessions.</p>
      ) : (
        <ul className="session-list">
          {sessions.data.map((session) => (
            <li key={session.id} className="session-list__item" data-current={session.current || undefined}>
              <div className="session-list__info">
                <strong>{session.device || UNKNOWN_DEVICE_TEXT}</strong>
                {session.current && <span className="badge badge--on">This device</span>}
                <span className="muted session-list__times">
                  Last seen {formatDateTime(session.lastSeenAt)} · signed in {formatDateTime(session.createdAt)}
                </span>
              </div>
              {!session.current && (
                <Button
                  size="sm"
                  variant="secondary"
                  aria-label={`End session on ${session.device || 'unknown device'}`}
                  disabled={end.isPending && end.variables === session.id}
                  onClick={() => end.mutate(session.id)}
                >
                  End
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
