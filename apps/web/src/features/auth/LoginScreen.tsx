import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useRouter, useRouterState } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { RECOVERY_CODES_FEW } from '@sealbox/rules';
import { Button, Card, Spinner, dismissToast, toast } from '@sealbox/ui';
import { RECOVERY_TEXT } from './recovery-text.ts';
import { warmCrypto } from '../../crypto/client.ts';
import { LabelledInput, UsernameInput } from '../../lib/LabelledInput.tsx';
import { postLogout } from './account-api.ts';
import {
  LOGIN_MESSAGES,
  codeToSend,
  signIn,
  validateLogin,
  validateTotpCode,
  type LoginFailure,
  type Stage,
} from './login-flow.ts';
import { DEFAULT_AFTER_LOGIN, safeRedirectPath } from './redirect.ts';
import { startSession } from './session.ts';
import { ReloadNotice } from './crypto-start.tsx';
import { CodeKindToggle, TotpCodeInput } from './TotpCodeInput.tsx';
import './auth.css';

/**
 * performance marks the login benchmark reads (bench/login/run.ts): the click, the start of
 * each stage (login:checking, login:deriving, login:signing-in, login:unlocking) and the end.
 */
export const LOGIN_MARKS = { warm: 'login:warm', click: 'login:click', unlocked: 'login:unlocked' } as const;
const stageMark = (stage: Stage) => `login:${stage}`;

const STAGE_LABELS: Record<Stage, string> = {
  checking: 'Checking account…',
  deriving: 'Deriving your key…',
  'signing-in': 'Signing in…',
  unlocking: 'Unlocking your keys…',
};

/**
 * docs/product.md "Screens" /login: username and password, then the TOTP code when the account has
 * one; signed in, it goes to `redirect` (an in-app path, checked again here) or /files.
 */
export function LoginScreen({ redirect }: { redirect?: string | undefined }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  // Straight after registering, the new username is filled in (history state, not the URL).
  const registered = useRouterState({ select: (state) => state.location.state.username });
  const [username, setUsername] = useState(registered ?? '');
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [totpCode, setTotpCode] = useState('');
  const [step, setStep] = useState<'credentials' | 'totp'>('credentials');
  /** The TOTP step takes a recovery code instead (a lost device). */
  const [recovery, setRecovery] = useState(false);
  const [loginHash, setLoginHash] = useState<string>();
  const [error, setError] = useState<string>();
  const [stage, setStage] = useState<Stage>();
  const [workerGone, setWorkerGone] = useState(false);
  const totpInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);

  // Start the worker and compile argon2id while the user types (first click at full speed).
  useEffect(() => {
    void warmCrypto().then(() => performance.mark(LOGIN_MARKS.warm));
  }, []);

  useEffect(() => {
    if (step === 'totp') totpInput.current?.focus();
  }, [step]);
  // With the username filled in, the password is what is left to type.
  useEffect(() => {
    if (registered) passwordInput.current?.focus();
  }, [registered]);

  const showFailure = (failure: LoginFailure) => {
    if (failure.display === 'inline') setError(failure.message);
    else if (failure.display === 'toast') toast(failure.message, 'error');
    else if (failure.display === 'reload') setWorkerGone(true);
  };

  const run = async (code?: string) => {
    for (const name of [
      LOGIN_MARKS.click,
      LOGIN_MARKS.unlocked,
      ...Object.keys(STAGE_LABELS).map((s) => stageMark(s as Stage)),
    ]) {
      performance.clearMarks(name);
    }
    performance.mark(LOGIN_MARKS.click);
    setError(undefined);
    setStage('checking');
    try {
      const outcome = await signIn({
        username,
        password,
        ...(code !== undefined ? { totpCode: code, loginHash } : {}),
        onStage: (next) => {
          performance.mark(stageMark(next));
          setStage(next);
        },
      });
      if (outcome.kind === 'totp') {
        setLoginHash(outcome.loginHash);
        setTotpCode('');
        setStep('totp');
        return;
      }
      if (outcome.kind === 'failed') {
        showFailure(outcome.failure);
        // A refused code is cleared for the next one, as authenticator prompts do; a recovery
        // code stays, selected, so a typo is mended without typing it all again.
        if (code !== undefined && recovery) setTimeout(() => totpInput.current?.select(), 0);
        else if (code !== undefined) clearTotp();
        return;
      }
      performance.mark(LOGIN_MARKS.unlocked);
      startSession(queryClient, outcome.profile);
      const redirecting = toast(LOGIN_MESSAGES.success, 'success');
      // safeRedirectPath again: the search param was validated, but this is the one place it is followed.
      await router.navigate({ href: safeRedirectPath(redirect) ?? DEFAULT_AFTER_LOGIN, replace: true });
      // "Redirecting..." is done with once the redirect is.
      dismissToast(redirecting);
      if (outcome.recoveryCodesLeft !== undefined) recoveryCodeUsed(outcome.recoveryCodesLeft);
    } finally {
      setStage(undefined);
    }
  };

  /** How many recovery codes are left; when few, the way to Profile, where new ones are made. */
  const recoveryCodeUsed = (left: number) => {
    const few = left <= RECOVERY_CODES_FEW;
    toast(LOGIN_MESSAGES.recoveryCodeUsed(left), 'info', {
      ...(few ? { action: { label: 'Open Profile', run: () => void router.navigate({ to: '/profile' }) } } : {}),
    });
  };

  const switchCodeKind = (next: boolean) => {
    setRecovery(next);
    setError(undefined);
    clearTotp();
  };

  const clearTotp = () => {
    setTotpCode('');
    // After the busy state ends (the input is enabled again on the next render).
    setTimeout(() => totpInput.current?.focus(), 0);
  };

  const onCredentials = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (stage) return;
    const invalid = validateLogin(username, password);
    if (invalid) {
      setError(invalid);
      return;
    }
    void run();
  };

  const onTotp = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (stage) return;
    const invalid = validateTotpCode(totpCode, recovery);
    if (invalid) {
      setError(invalid);
      return;
    }
    void run(codeToSend(totpCode, recovery));
  };

  const backToCredentials = () => {
    // End the half-done (TOTP pending) session, which the server would otherwise hold against the next lookup.
    void postLogout().catch(() => undefined);
    setStep('credentials');
    setLoginHash(undefined);
    setTotpCode('');
    setRecovery(false);
    setError(undefined);
  };

  const busy = stage !== undefined;
  const errorLine = workerGone ? (
    <ReloadNotice />
  ) : (
    error && (
      <p className="form__error" role="alert">
        {error}
      </p>
    )
  );
  const progress = (label: string) =>
    busy ? (
      <>
        <Spinner size={18} label={STAGE_LABELS[stage]} />
        <span aria-hidden="true">{STAGE_LABELS[stage]}</span>
      </>
    ) : (
      label
    );

  return (
    <div className="auth-page">
      <Card className="auth-card">
        {step === 'credentials' ? (
          <>
            <h1>Sign in</h1>
            {redirect && <p className="muted">Sign in to continue where you left off.</p>}
            <form className="form" onSubmit={onCredentials} noValidate aria-busy={busy}>
              <UsernameInput value={username} onChange={setUsername} />
              <LabelledInput
                label="Password"
                ref={passwordInput}
                name="password"
                type={showPassword ? 'text' : 'password'}
                autoComplete="current-password"
                value={password}
                onChange={setPassword}
              />
              <label className="checkbox">
                <input type="checkbox" checked={showPassword} onChange={(e) => setShowPassword(e.target.checked)} />
                <span>Show password</span>
              </label>
              {errorLine}
              <Button type="submit" size="lg" disabled={busy}>
                {progress('Sign in')}
              </Button>
            </form>
            <p className="auth-card__footer">
              <Link to="/recover">{RECOVERY_TEXT.forgot}</Link>
            </p>
            <p className="auth-card__footer">
              No account yet? <Link to="/register">Create one</Link>
            </p>
          </>
        ) : (
          <>
            <h1>Two-factor authentication</h1>
            {recovery && <p className="muted">{LOGIN_MESSAGES.recoveryHint}</p>}
            <form className="form" onSubmit={onTotp} noValidate aria-busy={busy}>
              <TotpCodeInput
                ref={totpInput}
                label={recovery ? LOGIN_MESSAGES.recoveryPrompt : LOGIN_MESSAGES.totpPrompt}
                value={totpCode}
                onChange={setTotpCode}
                recovery={recovery}
              />
              <CodeKindToggle recovery={recovery} onChange={switchCodeKind} disabled={busy} />
              {errorLine}
              <Button type="submit" size="lg" disabled={busy}>
                {progress('Verify TOTP')}
              </Button>
              <Button variant="ghost" onClick={backToCredentials} disabled={busy}>
                Use a different account
              </Button>
            </form>
          </>
        )}
      </Card>
    </div>
  );
}
