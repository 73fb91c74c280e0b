import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button, toast } from '@sealbox/ui';
import { totpConfirm, totpDisable, totpSetup, type Profile } from '../auth/account-api.ts';
import { PROFILE_QUERY_KEY } from '../auth/auth-state.ts';
import { TotpCodeInput } from '../auth/TotpCodeInput.tsx';
import { QrCode } from './QrCode.tsx';

export const TOTP_MESSAGES = {
  codeShape: 'Enter the 6-digit code from your authenticator app.',
  wrongCode: 'That code is not right (or was already used). Wait for the next one and try again.',
  enabled: 'Two-factor authentication is on.',
  disabled: 'Two-factor authentication is off.',
  failed: 'Could not change two-factor authentication. Please try again.',
} as const;

/** The secret in groups of 4, easier to type into an authenticator by hand. */
export function groupSecret(secret: string): string {
  return secret.replace(/\s+/g, '').match(/.{1,4}/g)?.join(' ') ?? secret;
}

export function TotpSection({ profile }: { profile: Profile }) {
  const queryClient = useQueryClient();
  const [setup, setSetup] = useState<{ secret: string; uri: string }>();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const setEnabled = (enabled: boolean) =>
    queryClient.setQueryData<Profile | null>(PROFILE_QUERY_KEY, (old) => (old ? { ...old, totpEnabled: enabled } : old));

  const fail = (status: number) => {
    if (status === 400) setError(TOTP_MESSAGES.wrongCode);
    else if (status !== 429 && status !== 401) toast(TOTP_MESSAGES.failed, 'error');
  };

  const startSetup = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const answer = await totpSetup();
      if (answer.ok) {
        setSetup(answer.data);
        setCode('');
      } else fail(answer.status);
    } finally {
      setBusy(false);
    }
  };

  const submit = (action: 'confirm' | 'disable') => async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    if (!/^\d{6}$/.test(code)) {
      setError(TOTP_MESSAGES.codeShape);
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      const answer = action === 'confirm' ? await totpConfirm(code) : await totpDisable(code);
      if (answer.ok) {
        setEnabled(answer.data.enabled);
        setSetup(undefined);
        setCode('');
        toast(answer.data.enabled ? TOTP_MESSAGES.enabled : TOTP_MESSAGES.disabled, 'success');
      } else fail(answer.status);
    } finally {
      setBusy(false);
    }
  };

  const errorLine = error && (
    <p className="form__error" role="alert">
      {error}
    </p>
  );

  return (
    <section className="profile-section" aria-labelledby="totp-title">
      <h2 id="totp-title">Two-factor authentication</h2>
      {profile.totpEnabled ? (
        <>
          <p>
            <span className="badge badge--on">On</span> Signing in asks for a code from your authenticator app.
          </p>
          <form className="form form--inline" onSubmit={(e) => void submit('disable')(e)} noValidate>
            <TotpCodeInput value={code} onChange={setCode} label="Code to turn it off" />
            <Button type="submit" variant="danger" disabled={busy}>
              Disable TOTP
            </Button>
          </form>
          {errorLine}
        </>
      ) : setup ? (
        <>
          <p>Scan this code with your authenticator app, or type the secret into it. Then enter the code it shows.</p>
          <div className="totp-setup">
            <QrCode value={setup.uri} label="QR code for your authenticator app" />
            <div className="totp-setup__secret">
              <span className="muted">Secret</span>
              <code className="totp-secret" data-secret={setup.secret}>
                {groupSecret(setup.secret)}
              </code>
            </div>
          </div>
          <form className="form form--inline" onSubmit={(e) => void submit('confirm')(e)} noValidate>
            <TotpCodeInput value={code} onChange={setCode} label="Code from the app" />
            <Button type="submit" disabled={busy}>
              Confirm
            </Button>
            <Button variant="ghost" onClick={() => setSetup(undefined)} disabled={busy}>
              Cancel
            </Button>
          </form>
          {errorLine}
        </>
      ) : (
        <>
          <p>
            <span className="badge">Off</span> Add a second step to signing in: a 6-digit code from an authenticator app.
          </p>
          <Button onClick={() => void startSetup()} disabled={busy}>
            Set up TOTP
          </Button>
          {errorLine}
        </>
      )}
    </section>
  );
}
