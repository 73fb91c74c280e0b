/**
 * Profile -> Password (docs/web-accounts.md "Change password"): the current password and the new one
 * twice, with registration's rules. The crypto worker re-seals the same keys under the new
 * password; the server swaps them in one call and signs out every other session. No file, share
 * or link changes.
 */
import { useState, type FormEvent } from 'react';
import { Button, toast } from '@sealbox/ui';
import { PasswordInput } from '../../lib/LabelledInput.tsx';
import { cryptoWorker } from '../../crypto/client.ts';
import {
  NewPasswordFields,
  PASSWORD_CHANGE_MESSAGES,
  changePasswordProblem,
  putAccountPassword,
  type Profile,
} from '../auth/index.ts';
import { ProfileSection } from './ProfileSection.tsx';
import { sealedForPassword } from './sealed-account.ts';
import { FormError } from '../../lib/FormError.tsx';

export function PasswordSection({ profile }: { profile: Profile }) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const change = async () => {
    const found = await sealedForPassword(profile, current);
    if (!found.ok) return setError(found.message);
    const body = await cryptoWorker.call('changePassword', current, next, found.sealed);
    const answer = await putAccountPassword({ currentPassword: found.loginHash, ...body });
    if (!answer.ok) return setError(answer.message ?? PASSWORD_CHANGE_MESSAGES.failed);
    setCurrent('');
    setNext('');
    setConfirmation('');
    toast(PASSWORD_CHANGE_MESSAGES.changed(answer.data.endedSessions), 'success');
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const problem = changePasswordProblem(current, next, confirmation);
    setError(problem);
    if (problem) return;
    setBusy(true);
    try {
      await change();
    } catch {
      setError(PASSWORD_CHANGE_MESSAGES.failed);
    } finally {
      setBusy(false);
    }
  };

  return (
    <ProfileSection id="password" title="Change password">
      <p>Your files stay as they are: only the key that opens your account is sealed again. Other devices are signed out.</p>
      <form className="form password-form" onSubmit={(e) => void submit(e)} noValidate aria-busy={busy}>
        <PasswordInput label="Current password" name="current-password" purpose="current" value={current} onChange={setCurrent} />
        <NewPasswordFields password={next} confirmation={confirmation} onPassword={setNext} onConfirmation={setConfirmation} />
        <FormError error={error} />
        <div>
          <Button type="submit" disabled={busy}>
            {busy ? 'Changing password…' : 'Change password'}
          </Button>
        </div>
      </form>
    </ProfileSection>
  );
}
