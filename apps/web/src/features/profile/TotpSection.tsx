import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button, toast } from '@sealbox/ui';
import {
  PROFILE_QUERY_KEY,
  TotpCodeInput,
  deriveLoginHash,
  totpConfirm,
  totpDisable,
  totpSetup,
  type Answer,
  type Profile,
} from '../auth/index.ts';
import { PasswordInput } from '../../lib/LabelledInput.tsx';
import { QrCode } from './QrCode.tsx';
import './profile.css';

export const TOTP_MESSAGES = {
  passwordMissing: 'Enter the password you sign in with.',
  wrongPassword: 'Wrong password. Enter the password you sign in with.',
  codeShape: 'Enter the 6-digit code from your authenticator app.',
  wrongCode: 'That code is not right (or was already used). Wait for the next one and try again.',
  enabled: 'Two-factor authentication is on.',
  disabled: 'Two-factor authentication is off.',
  failed: 'Could not change two-factor authentication. Please try again.',
} as const;

/** The secret in groups of 4, easier to type into an authenticator by hand. */
export function groupSecret(secret: string): string {
  return (
    secret
      .replace(/\s+/g, '')
      .match(/.{1,4}/g)
      ?.join(' ') ?? secret
  );
}

/** Copies the secret (without the grouping spaces) and says 'Copied' for a moment. */
function CopySecretButton({ secret }: { secret: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2_000);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      toast('Could not copy the secret. Select it and copy it by hand.', 'error');
    }
  };
  return (
    <Button size="sm" variant="secondary" className="totp-copy" onClick={() => void copy()}>
      <span aria-live="polite">{copied ? 'Copied' : 'Copy secret'}</span>
    </Button>
  );
}

export function TotpSection({ profile }: { profile: Profile }) {
  const queryClient = useQueryClient();
  const [setup, setSetup] = useState<{ secret: string; uri: string }>();
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const setEnabled = (enabled: boolean) =>
    queryClient.setQueryData<Profile | null>(PROFILE_QUERY_KEY, (old) => (old ? { ...old, totpEnabled: enabled } : old));

  const codeInput = useRef<HTMLInputElement>(null);

  const fail = (status: number) => {
    if (status === 403) setError(TOTP_MESSAGES.wrongPassword);
    else if (status === 400) {
      // A refused code is cleared and the field focused for the next one.
      setError(TOTP_MESSAGES.wrongCode);
      setCode('');
      setTimeout(() => codeInput.current?.focus(), 0);
    } else if (status !== 429 && status !== 401) toast(TOTP_MESSAGES.failed, 'error');
  };

  const fieldError = (needs: { code?: boolean; password?: boolean }): string | undefined => {
    if (needs.code && !/^\d{6}$/.test(code)) return TOTP_MESSAGES.codeShape;
    if (needs.password && password === '') return TOTP_MESSAGES.passwordMissing;
    return undefined;
  };

  /** A form's submit: checks the fields it needs, then runs `task` while busy. */
  const submit =
    (needs: { code?: boolean; password?: boolean }, task: () => Promise<void>) => async (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      if (busy) return;
      const invalid = fieldError(needs);
      setError(invalid);
      if (invalid) return;
      setBusy(true);
      try {
        await task();
      } finally {
        setBusy(false);
      }
    };

  /** The typed password's login hash, derived as sign-in does; undefined when that failed (and was shown). */
  const typedLoginHash = async (): Promise<string | undefined> => {
    const derived = await deriveLoginHash(profile.username, password);
    if (derived.kind === 'hash') return derived.loginHash;
    if (derived.failure.display === 'inline') setError(derived.failure.message);
    else if (derived.failure.display === 'toast') toast(derived.failure.message, 'error');
    return undefined;
  };

  const changed = (answer: Answer<{ enabled: boolean }>) => {
    if (!answer.ok) return fail(answer.status);
    setEnabled(answer.data.enabled);
    setSetup(undefined);
    setCode('');
    setPassword('');
    toast(answer.data.enabled ? TOTP_MESSAGES.enabled : TOTP_MESSAGES.disabled, 'success');
  };

  const startSetup = submit({ password: true }, async () => {
    const loginHash = await typedLoginHash();
    if (loginHash === undefined) return;
    const answer = await totpSetup(loginHash);
    if (!answer.ok) return fail(answer.status);
    setSetup(answer.data);
    setCode('');
    setPassword('');
  });

  const confirm = submit({ code: true }, async () => changed(await totpConfirm(code)));

  const disable = submit({ code: true, password: true }, async () => {
    const loginHash = await typedLoginHash();
    if (loginHash !== undefined) changed(await totpDisable(code, loginHash));
  });

  const passwordField = (
    <PasswordInput label="Password" name="password" purpose="current" value={password} onChange={setPassword} />
  );

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
          <form className="form form--inline" onSubmit={(e) => void disable(e)} noValidate aria-busy={busy}>
            <TotpCodeInput ref={codeInput} value={code} onChange={setCode} label="Code to turn it off" />
            {passwordField}
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
              <CopySecretButton secret={setup.secret} />
            </div>
          </div>
          <form className="form form--inline" onSubmit={(e) => void confirm(e)} noValidate>
            <TotpCodeInput ref={codeInput} value={code} onChange={setCode} label="Code from the app" />
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
          <form className="form form--inline" onSubmit={(e) => void startSetup(e)} noValidate aria-busy={busy}>
            {passwordField}
            <Button type="submit" disabled={busy}>
              Set up TOTP
            </Button>
          </form>
          {errorLine}
        </>
      )}
    </section>
  );
}
