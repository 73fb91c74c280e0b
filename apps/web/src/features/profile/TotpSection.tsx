/**
 * Profile -> Two-factor authentication (docs/web-accounts.md "TOTP recovery codes"): set up with
 * the password and a first code, then the recovery codes shown once; while on, how many codes are
 * left, making new ones, and turning it off with a code from the app or a recovery code.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { RECOVERY_CODE_COUNT, RECOVERY_CODES_FEW, isRecoveryCodeShape, normaliseRecoveryCode } from '@sealbox/rules';
import { Button, toast } from '@sealbox/ui';
import {
  CodeKindToggle,
  LOGIN_MESSAGES,
  PROFILE_QUERY_KEY,
  TotpCodeInput,
  deriveLoginHash,
  totpConfirm,
  totpDisable,
  totpRecoveryCodes,
  totpSetup,
  type Profile,
} from '../auth/index.ts';
import { PasswordInput } from '../../lib/LabelledInput.tsx';
import { FormError } from '../../lib/FormError.tsx';
import { QrCode } from './QrCode.tsx';
import { TOTP_STATUS_QUERY_KEY, totpStatusQueryOptions } from './queries.ts';
import { RecoveryCodesShown } from './RecoveryCodesShown.tsx';
import './profile.css';

export const TOTP_MESSAGES = {
  passwordMissing: 'Enter the password you sign in with.',
  wrongPassword: 'Wrong password. Enter the password you sign in with.',
  codeShape: 'Enter the 6-digit code from your authenticator app.',
  recoveryShape: LOGIN_MESSAGES.recoveryShape,
  wrongCode: 'That code is not right (or was already used). Wait for the next one and try again.',
  wrongRecoveryCode: LOGIN_MESSAGES.invalidRecoveryCode,
  enabled: 'Two-factor authentication is on.',
  disabled: 'Two-factor authentication is off.',
  failed: 'Could not change two-factor authentication. Please try again.',
  codesLeft: (left: number) =>
    left === 0
      ? 'No recovery codes left. Make new ones to keep a way in without your authenticator app.'
      : left <= RECOVERY_CODES_FEW
        ? `Only ${left} of ${RECOVERY_CODE_COUNT} recovery codes left. Make new ones before they run out.`
        : `${left} of ${RECOVERY_CODE_COUNT} recovery codes left.`,
  makeNew: 'Make new recovery codes',
  makeNewLead: 'New recovery codes replace the ones you have: those stop working.',
  madeNew: 'New recovery codes made. The old ones no longer work.',
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
  /** New recovery codes on screen, until the user has saved them. */
  const [shownCodes, setShownCodes] = useState<string[]>();
  /** Asking the password for new recovery codes. */
  const [remaking, setRemaking] = useState(false);
  /** The code field takes a recovery code (turning TOTP off without the app). */
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const codesLeft = useQuery({ ...totpStatusQueryOptions(), enabled: profile.totpEnabled });

  const setEnabled = (enabled: boolean) =>
    queryClient.setQueryData<Profile | null>(PROFILE_QUERY_KEY, (old) => (old ? { ...old, totpEnabled: enabled } : old));

  const codeInput = useRef<HTMLInputElement>(null);

  const reset = () => {
    setCode('');
    setPassword('');
    setError(undefined);
  };

  const fail = (status: number) => {
    if (status === 403) setError(TOTP_MESSAGES.wrongPassword);
    else if (status === 400 && recovery) {
      // A recovery code stays, selected, so a typo is mended without typing it all again.
      setError(TOTP_MESSAGES.wrongRecoveryCode);
      setTimeout(() => codeInput.current?.select(), 0);
    } else if (status === 400) {
      // A refused code is cleared and the field focused for the next one.
      setError(TOTP_MESSAGES.wrongCode);
      setCode('');
      setTimeout(() => codeInput.current?.focus(), 0);
    } else if (status !== 429 && status !== 401) toast(TOTP_MESSAGES.failed, 'error');
  };

  const fieldError = (needs: { code?: boolean; password?: boolean }): string | undefined => {
    if (needs.code && recovery && !isRecoveryCodeShape(code)) return TOTP_MESSAGES.recoveryShape;
    if (needs.code && !recovery && !/^\d{6}$/.test(code)) return TOTP_MESSAGES.codeShape;
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

  /** New codes from the server: counted in full, and on screen until saved. */
  const showCodes = (codes: string[]) => {
    queryClient.setQueryData(TOTP_STATUS_QUERY_KEY, codes.length);
    setShownCodes(codes);
  };

  const startSetup = submit({ password: true }, async () => {
    const loginHash = await typedLoginHash();
    if (loginHash === undefined) return;
    const answer = await totpSetup(loginHash);
    if (!answer.ok) return fail(answer.status);
    setSetup(answer.data);
    reset();
  });

  const confirm = submit({ code: true }, async () => {
    const answer = await totpConfirm(code);
    if (!answer.ok) return fail(answer.status);
    setEnabled(true);
    setSetup(undefined);
    reset();
    showCodes(answer.data.recoveryCodes);
    toast(TOTP_MESSAGES.enabled, 'success');
  });

  const disable = submit({ code: true, password: true }, async () => {
    const loginHash = await typedLoginHash();
    if (loginHash === undefined) return;
    const answer = await totpDisable(recovery ? normaliseRecoveryCode(code) : code, loginHash);
    if (!answer.ok) return fail(answer.status);
    setEnabled(false);
    queryClient.removeQueries({ queryKey: TOTP_STATUS_QUERY_KEY, exact: true });
    setRecovery(false);
    reset();
    toast(TOTP_MESSAGES.disabled, 'success');
  });

  const remake = submit({ password: true }, async () => {
    const loginHash = await typedLoginHash();
    if (loginHash === undefined) return;
    const answer = await totpRecoveryCodes(loginHash);
    if (!answer.ok) return fail(answer.status);
    setRemaking(false);
    reset();
    showCodes(answer.data.recoveryCodes);
    toast(TOTP_MESSAGES.madeNew, 'success');
  });

  const switchCodeKind = (next: boolean) => {
    setRecovery(next);
    setCode('');
    setError(undefined);
    setTimeout(() => codeInput.current?.focus(), 0);
  };

  const passwordField = (
    <PasswordInput label="Password" name="password" purpose="current" value={password} onChange={setPassword} />
  );

  const errorLine = <FormError error={error} />;

  const left = codesLeft.data;
  const enabledView = remaking ? (
    <form className="form" onSubmit={(e) => void remake(e)} noValidate aria-busy={busy}>
      <p>{TOTP_MESSAGES.makeNewLead}</p>
      {passwordField}
      {errorLine}
      <div className="recovery-steps__actions">
        <Button
          variant="ghost"
          onClick={() => {
            setRemaking(false);
            reset();
          }}
          disabled={busy}
        >
          Cancel
        </Button>
        <Button type="submit" disabled={busy}>
          {TOTP_MESSAGES.makeNew}
        </Button>
      </div>
    </form>
  ) : (
    <>
      <p>
        <span className="badge badge--on">On</span> Signing in asks for a code from your authenticator app.
      </p>
      <div className="totp-codes-left">
        {left !== undefined && (
          <p className={left <= RECOVERY_CODES_FEW ? 'auth-card__warning' : undefined}>{TOTP_MESSAGES.codesLeft(left)}</p>
        )}
        <Button
          variant="secondary"
          size="sm"
          onClick={() => {
            reset();
            setRemaking(true);
          }}
        >
          {TOTP_MESSAGES.makeNew}
        </Button>
      </div>
      <form className="form form--inline" onSubmit={(e) => void disable(e)} noValidate aria-busy={busy}>
        <TotpCodeInput
          ref={codeInput}
          value={code}
          onChange={setCode}
          label={recovery ? 'Recovery code to turn it off' : 'Code to turn it off'}
          recovery={recovery}
        />
        {passwordField}
        <Button type="submit" variant="danger" disabled={busy}>
          Disable TOTP
        </Button>
      </form>
      <CodeKindToggle recovery={recovery} onChange={switchCodeKind} disabled={busy} />
      {errorLine}
    </>
  );

  return (
    <section className="profile-section" aria-labelledby="totp-title">
      <h2 id="totp-title">Two-factor authentication</h2>
      {shownCodes ? (
        <RecoveryCodesShown codes={shownCodes} username={profile.username} onDone={() => setShownCodes(undefined)} />
      ) : profile.totpEnabled ? (
        enabledView
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
