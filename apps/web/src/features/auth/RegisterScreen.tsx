import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { Button, Card, Spinner, toast } from '@sealbox/ui';
import { cryptoWorker, isWorkerFailure } from '../../crypto/client.ts';
import { useQueryClient } from '@tanstack/react-query';
import { postRegister } from './account-api.ts';
import { signIn } from './login-flow.ts';
import { DEFAULT_AFTER_LOGIN } from './redirect.ts';
import { RecoveryPhraseSteps, type RecoverySetupData } from './RecoveryPhraseSteps.tsx';
import { startSession } from './session.ts';
import { ReloadNotice } from './crypto-start.tsx';
import { REGISTER_MESSAGES, validateRegistration, type RegistrationValues } from './register-validation.ts';
import { useAvailability, type Availability } from './useAvailability.ts';
import './auth.css';

type FieldName = keyof RegistrationValues;

interface FieldProps {
  name: FieldName;
  label: string;
  type?: string;
  autoComplete: string;
  value: string;
  onChange: (value: string) => void;
  onBlur: () => void;
  error: string | undefined;
  status?: string | undefined;
  optional?: boolean;
}

function Field({ name, label, type = 'text', autoComplete, value, onChange, onBlur, error, status, optional }: FieldProps) {
  const id = useId();
  const messageId = `${id}-message`;
  let message: ReactNode = null;
  if (error) {
    message = (
      <span id={messageId} className="field__message field__message--error" role="alert">
        {error}
      </span>
    );
  } else if (status) {
    message = (
      <span id={messageId} className="field__message" role="status">
        {status}
      </span>
    );
  }
  // The message sits outside the <label>, so it describes the input rather than naming it.
  return (
    <div className="field">
      <label htmlFor={id}>
        {label}
        {optional && <span className="field__optional"> (optional)</span>}
      </label>
      <input
        id={id}
        name={name}
        type={type}
        autoComplete={autoComplete}
        autoCapitalize={type === 'text' ? 'none' : undefined}
        spellCheck={type === 'text' ? false : undefined}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={message ? messageId : undefined}
        onChange={(e) => onChange(e.target.value)}
        onBlur={onBlur}
      />
      {message}
    </div>
  );
}

function availabilityMessage(state: Availability, checking: string, taken: string) {
  if (state === 'taken') return { error: taken, status: undefined };
  if (state === 'waiting' || state === 'checking') return { error: undefined, status: checking };
  return { error: undefined, status: undefined };
}

/** Said plainly before an account is made: the password and the recovery phrase are the only keys. */
export const NO_RECOVERY_TITLE = 'Only you can open your files.';
export const NO_RECOVERY_TEXT =
  'They are encrypted with your password. Next you get a 24-word recovery phrase: if you forget your password and lose the phrase too, your files are lost for good.';

/**
 * docs/product.md "Screens" /register: the registration form, its live checks, and the keys made in
 * the crypto worker.
 */
export function RegisterScreen() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<RegistrationValues>({ username: '', email: '', password: '', confirmPassword: '' });
  const [touched, setTouched] = useState<Partial<Record<FieldName, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [workerGone, setWorkerGone] = useState(false);
  // Signed in, the new account's recovery phrase is shown before going on (docs/web-accounts.md).
  const [recovery, setRecovery] = useState<{ setup: RecoverySetupData; loginHash: string }>();

  const errors = validateRegistration(values);

  const username = useAvailability('username', values.username, errors.username === undefined);
  const email = useAvailability('email', values.email, values.email !== '' && errors.email === undefined);

  // A message shows once the field was typed in or left, or the form was submitted.
  const shown = (name: FieldName) => submitted || touched[name] === true || values[name] !== '';
  // What every field takes from the form's state; `error` is the message to show once it is due.
  const bind = (name: FieldName, error: string | undefined) => ({
    name,
    value: values[name],
    onChange: (value: string) => setValues((prev) => ({ ...prev, [name]: value })),
    onBlur: () => setTouched((prev) => ({ ...prev, [name]: true })),
    error: shown(name) ? error : undefined,
  });

  const usernameAvailability = availabilityMessage(
    username.state,
    REGISTER_MESSAGES.usernameChecking,
    REGISTER_MESSAGES.usernameTaken,
  );
  const emailAvailability = availabilityMessage(email.state, REGISTER_MESSAGES.emailChecking, REGISTER_MESSAGES.emailTaken);

  const finish = async () => {
    await navigate({ to: DEFAULT_AFTER_LOGIN, replace: true });
    toast(REGISTER_MESSAGES.signedIn, 'success');
  };

  if (recovery) {
    return (
      <div className="auth-page">
        <Card className="auth-card auth-card--wide">
          <h1>Your recovery phrase</h1>
          <RecoveryPhraseSteps
            setup={recovery.setup}
            loginHash={recovery.loginHash}
            username={values.username}
            onSaved={() => void finish()}
          />
        </Card>
      </div>
    );
  }

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setSubmitted(true);
    if (Object.values(errors).some(Boolean)) return;
    setBusy(true);
    try {
      const [usernameState, emailState] = await Promise.all([username.checkNow(), email.checkNow()]);
      if (usernameState === 'taken' || emailState === 'taken') return;

      const registration = await cryptoWorker.call('register', values.password);
      const answer = await postRegister({
        username: values.username,
        email: values.email === '' ? null : values.email,
        ...registration,
      });
      if (answer.ok) {
        // Signed in at once with the password just chosen (issue 23); the login page only if that fails.
        const outcome = await signIn({ username: values.username, password: values.password }).catch(() => undefined);
        if (outcome?.kind === 'signed-in') {
          startSession(queryClient, outcome.profile);
          const setup = await cryptoWorker
            .call('makeRecovery', values.password, { ...registration, userId: answer.data.id })
            .catch(() => undefined);
          if (setup) return setRecovery({ setup, loginHash: registration.password });
          await finish();
          return;
        }
        toast(REGISTER_MESSAGES.success, 'success');
        await navigate({ to: '/login', state: { username: values.username } });
        return;
      }
      if (answer.status === 409) {
        // Taken between the check and the submit: find out which, and say so on the field.
        username.forget();
        email.forget();
        const [u, e] = await Promise.all([username.checkNow(), email.checkNow()]);
        if (u === 'taken' || e === 'taken') return;
      }
      if (answer.status !== 429) toast(REGISTER_MESSAGES.failed, 'error');
    } catch (error) {
      if (isWorkerFailure(error)) setWorkerGone(true);
      else toast(REGISTER_MESSAGES.failed, 'error');
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="auth-page">
      <Card className="auth-card">
        <h1>Create your account</h1>
        <p className="muted auth-card__lead">Your keys are made in this browser. Sealbox never sees your password.</p>
        <form className="form" onSubmit={(e) => void onSubmit(e)} noValidate aria-busy={busy}>
          <Field
            {...bind('username', errors.username ?? usernameAvailability.error)}
            label="Username"
            autoComplete="username"
            status={usernameAvailability.status}
          />
          <Field
            {...bind('email', errors.email ?? emailAvailability.error)}
            label="Email"
            optional
            type="email"
            autoComplete="email"
            status={emailAvailability.status}
          />
          <Field {...bind('password', errors.password)} label="Password" type="password" autoComplete="new-password" />
          <Field
            {...bind('confirmPassword', errors.confirmPassword)}
            label="Confirm password"
            type="password"
            autoComplete="new-password"
          />
          <p className="auth-card__warning" id="no-recovery">
            <strong>{NO_RECOVERY_TITLE}</strong> {NO_RECOVERY_TEXT}
          </p>
          {workerGone && <ReloadNotice />}
          <Button type="submit" size="lg" disabled={busy} aria-describedby="no-recovery">
            {busy ? (
              <>
                <Spinner size={18} label="Creating your keys" />
                <span aria-hidden="true">Creating your keys…</span>
              </>
            ) : (
              'Register'
            )}
          </Button>
        </form>
        <p className="auth-card__footer">
          <Link to="/login">Back to login</Link>
        </p>
      </Card>
    </div>
  );
}
