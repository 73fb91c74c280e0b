import { useQuery } from '@tanstack/react-query';
import { Spinner } from '@sealbox/ui';
import { cryptoWorker } from '../../crypto/client.ts';
import './profile.css';

export function FingerprintSection({ userId }: { userId: string }) {
  const fingerprint = useQuery({
    queryKey: ['my-fingerprint', userId],
    queryFn: () => cryptoWorker.call('myFingerprint'),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  return (
    <section className="profile-section" aria-labelledby="fingerprint-title">
      <h2 id="fingerprint-title">Key fingerprint</h2>
      <p className="muted">
        Made from your public keys in this browser. When someone shares with you, they can compare it with the one their browser
        shows for you.
      </p>
      {fingerprint.isPending ? (
        <Spinner label="Computing fingerprint" />
      ) : fingerprint.data ? (
        <code className="fingerprint" title="Your key fingerprint">
          {fingerprint.data}
        </code>
      ) : (
        <p className="form__error">Your keys are not available in this browser.</p>
      )}
    </section>
  );
}
