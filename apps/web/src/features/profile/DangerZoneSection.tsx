/**
 * Profile -> Danger zone (docs/web-accounts.md "Delete account"): deleting the account takes the
 * password, the TOTP code (or a TOTP recovery code) while TOTP is on, and the username typed again. The server ends the
 * account at once (every session, share and link) and removes its files after; this tab then
 * forgets its keys and goes home.
 */
import { useState, type FormEvent } from 'react';
import { Button, toast } from '@sealbox/ui';
import { LabelledInput, PasswordInput } from '../../lib/LabelledInput.tsx';
import { FormError } from '../../lib/FormError.tsx';
import { isRecoveryCodeShape, normaliseRecoveryCode } from '@sealbox/rules';
import {
  CodeKindToggle,
  LOGIN_MESSAGES,
  TotpCodeInput,
  deleteAccount,
  deriveLoginHash,
  endingSessionOnPurpose,
  reportSessionEnded,
  useLogout,
  type Profile,
} from '../auth/index.ts';
import { ProfileSection } from './ProfileSection.tsx';

export const DELETE_ACCOUNT_MESSAGES = {
  passwordMissing: 'Enter the password you sign in with.',
  wrongPassword: 'Wrong password. Enter the password you sign in with.',
  codeShape: 'Enter the 6-digit code from your authenticator app.',
  recoveryShape: LOGIN_MESSAGES.recoveryShape,
  nameMismatch: 'Type your username exactly to confirm.',
  failed: 'Could not delete your account. Please try again.',
  deleted: 'Your account was deleted. Everything in it is gone.',
} as const;

export function DangerZoneSection({ profile }: { profile: Profile }) {
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [recovery, setRecovery] = useState(false);
  const [typedName, setTypedName] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const { logout } = useLogout();

  const problem = (): string | undefined => {
    if (password === '') return DELETE_ACCOUNT_MESSAGES.passwordMissing;
    if (profile.totpEnabled && recovery && !isRecoveryCodeShape(code)) return DELETE_ACCOUNT_MESSAGES.recoveryShape;
    if (profile.totpEnabled && !recovery && !/^\d{6}$/.test(code)) return DELETE_ACCOUNT_MESSAGES.codeShape;
    if (typedName !== profile.username) return DELETE_ACCOUNT_MESSAGES.nameMismatch;
    return undefined;
  };

  const remove = async () => {
    const derived = await deriveLoginHash(profile.username, password);
    if (derived.kind !== 'hash') return setError(derived.failure.message ?? DELETE_ACCOUNT_MESSAGES.failed);
    const totpCode = recovery ? normaliseRecoveryCode(code) : code;
    const body = { password: derived.loginHash, confirm: typedName, ...(profile.totpEnabled ? { totpCode } : {}) };
    // The server ends this session with the account: this tab leaves by itself, to the home page.
    const answer = await endingSessionOnPurpose(async () => {
      const sent = await deleteAccount(body);
      if (sent.ok) {
        await logout();
        toast(DELETE_ACCOUNT_MESSAGES.deleted, 'success');
      }
      return sent;
    });
    if (answer.ok) return;
    if (answer.status === 403) return setError(DELETE_ACCOUNT_MESSAGES.wrongPassword);
    if (answer.status === 400 && answer.message) return setError(answer.message);
    // The session had ended before (elsewhere): said as any 401 is, now that the call is over.
    if (answer.status === 401) return reportSessionEnded();
    // A 429 is told by the app's own handler.
    if (answer.status !== 429) setError(DELETE_ACCOUNT_MESSAGES.failed);
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
    setRecovery(false);
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
          {profile.totpEnabled && (
            <>
              <TotpCodeInput
                label={recovery ? 'Recovery code' : 'TOTP code'}
                value={code}
                onChange={setCode}
                recovery={recovery}
              />
              <CodeKindToggle
                recovery={recovery}
                onChange={(next) => {
                  setRecovery(next);
                  setCode('');
                }}
                disabled={busy}
              />
            </>
          )}
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
