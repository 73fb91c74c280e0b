/**
 * Profile -> Danger zone (docs/web-accounts.md "Delete account"): deleting the account takes the
 * password, the TOTP code while TOTP is on, and the username typed again. The server ends the
 * account at once (every session, share and link) and removes its files after; this tab then
 * forgets its keys and goes home.
 */
import { useState, type FormEvent } from 'react';
import { Button, toast } from '@sealbox/ui';
import { LabelledInput, PasswordInput } from '../../lib/LabelledInput.tsx';
import { FormError } from '../../lib/FormError.tsx';
import { TotpCodeInput, deleteAccount, deriveLoginHash, endingSessionOnPurpose, useLogout, type Profile } from '../auth/index.ts';
import { ProfileSection } from './ProfileSection.tsx';

export const DELETE_ACCOUNT_MESSAGES = {
  passwordMissing: 'Enter the password you sign in with.',
  wrongPassword: 'Wrong password. Enter the password you sign in with.',
  codeShape: 'Enter the 6-digit code from your authenticator app.',
  nameMismatch: 'Type your username exactly to confirm.',
  failed: 'Could not delete your account. Please try again.',
  deleted: 'Your account was deleted. Everything in it is gone.',
} as const;

export function DangerZoneSection({ profile }: { profile: Profile }) {
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [typedName, setTypedName] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const { logout } = useLogout();

  const problem = (): string | undefined => {
    if (password === '') return DELETE_ACCOUNT_MESSAGES.passwordMissing;
    if (profile.totpEnabled && !/^\d{6}$/.test(code)) return DELETE_ACCOUNT_MESSAGES.codeShape;
    if (typedName !== profile.username) return DELETE_ACCOUNT_MESSAGES.nameMismatch;
    return undefined;
  };

  const remove = async () => {
    const derived = await deriveLoginHash(profile.username, password);
    if (derived.kind !== 'hash') return setError(derived.failure.message ?? DELETE_ACCOUNT_MESSAGES.failed);
    const body = { password: derived.loginHash, confirm: typedName, ...(profile.totpEnabled ? { totpCode: code } : {}) };
    // The server ends this session with the account: this tab leaves by itself, to the home page.
    await endingSessionOnPurpose(async () => {
      const answer = await deleteAccount(body);
      if (!answer.ok) {
        if (answer.status === 403) return setError(DELETE_ACCOUNT_MESSAGES.wrongPassword);
        if (answer.status === 400 && answer.message) return setError(answer.message);
        // 429 and 401 are told by the app's own handlers.
        if (answer.status !== 429 && answer.status !== 401) setError(DELETE_ACCOUNT_MESSAGES.failed);
        return;
      }
      await logout();
      toast(DELETE_ACCOUNT_MESSAGES.deleted, 'success');
    });
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const found = problem();
    setError(found);
    if (found) return;
    setBusy(true);
    try {
      await remove();
    } catch {
      setError(DELETE_ACCOUNT_MESSAGES.failed);
    } finally {
      setBusy(false);
    }
  };

  const cancel = () => {
    setOpen(false);
    setPassword('');
    setCode('');
    setTypedName('');
    setError(undefined);
  };

  return (
    <ProfileSection id="danger-zone" title="Danger zone">
      <p>
        Deleting your account removes every file and folder you own, every share and link you made, and your access to what others
        shared with you. It cannot be undone. Your username stays reserved for a while, so nobody can take it and pass for you.
      </p>
      {open ? (
        <form className="form danger-form" onSubmit={(e) => void submit(e)} noValidate aria-busy={busy}>
          <PasswordInput label="Password" name="password" purpose="current" value={password} onChange={setPassword} />
          {profile.totpEnabled && <TotpCodeInput label="TOTP code" value={code} onChange={setCode} />}
          <LabelledInput
            label={`Type your username (${profile.username}) to confirm`}
            name="confirm-username"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            value={typedName}
            onChange={setTypedName}
          />
          <FormError error={error} />
          <div className="danger-form__actions">
            <Button type="submit" variant="danger" disabled={busy}>
              {busy ? 'Deleting account…' : 'Delete my account forever'}
            </Button>
            <Button type="button" variant="secondary" onClick={cancel} disabled={busy}>
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        <div>
          <Button variant="danger" onClick={() => setOpen(true)}>
            Delete account…
          </Button>
        </div>
      )}
    </ProfileSection>
  );
}
