/**
 * Profile -> Recovery phrase (docs/web-accounts.md "Recovery phrase"): whether the account has one
 * and since when; making a new one (for the password) voids the old. Without one, a forgotten
 * password loses every file, and the section says so.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button, toast } from '@sealbox/ui';
import { cryptoWorker } from '../../crypto/client.ts';
import { PasswordInput } from '../../lib/LabelledInput.tsx';
import { RecoveryPhraseSteps, type Profile, type RecoverySetupData } from '../auth/index.ts';
import { RECOVERY_STATUS_KEY, recoveryStatusQueryOptions } from './queries.ts';
import { formatDate } from './format.ts';
import { ProfileSection } from './ProfileSection.tsx';
import { sealedForPassword } from './sealed-account.ts';
import { FormError } from '../../lib/FormError.tsx';

const TEXT = {
  none: 'You have no recovery phrase. If you forget your password, your files cannot be opened by anyone, not even by the server.',
  since: (date: string) => `Made on ${date}. Making a new one voids it.`,
  saved: 'Recovery phrase saved.',
  replaced: 'Recovery phrase saved. The old one no longer works.',
} as const;

export function RecoverySection({ profile }: { profile: Profile }) {
  const queryClient = useQueryClient();
  const status = useQuery(recoveryStatusQueryOptions());
  const [asking, setAsking] = useState(false);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [made, setMade] = useState<{ setup: RecoverySetupData; loginHash: string }>();
  const had = status.data !== null && status.data !== undefined;

  const start = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      const found = await sealedForPassword(profile, password);
      if (!found.ok) return setError(found.message);
      setMade({ setup: await cryptoWorker.call('makeRecovery', password, found.sealed), loginHash: found.loginHash });
      setPassword('');
      setError(undefined);
      setAsking(false);
    } finally {
      setBusy(false);
    }
  };

  return (
    <ProfileSection id="recovery" title="Recovery phrase">
      {made ? (
        <RecoveryPhraseSteps
          setup={made.setup}
          loginHash={made.loginHash}
          username={profile.username}
          onSaved={(createdAt) => {
            queryClient.setQueryData(RECOVERY_STATUS_KEY, createdAt);
            setMade(undefined);
            toast(had ? TEXT.replaced : TEXT.saved, 'success');
          }}
        />
      ) : (
        <>
          {status.isSuccess && (
            <p className={had ? undefined : 'auth-card__warning'}>{had ? TEXT.since(formatDate(status.data!)) : TEXT.none}</p>
          )}
          {asking ? (
            <form className="form" onSubmit={(e) => void start(e)} noValidate aria-busy={busy}>
              <PasswordInput label="Password" name="password" purpose="current" value={password} onChange={setPassword} />
              <FormError error={error} />
              <div className="recovery-steps__actions">
                <Button variant="ghost" onClick={() => setAsking(false)} disabled={busy}>
                  Cancel
                </Button>
                <Button type="submit" disabled={busy || password === ''}>
                  Continue
                </Button>
              </div>
            </form>
          ) : (
            <div>
              <Button onClick={() => setAsking(true)}>{had ? 'Make a new recovery phrase' : 'Make a recovery phrase'}</Button>
            </div>
          )}
        </>
      )}
    </ProfileSection>
  );
}
