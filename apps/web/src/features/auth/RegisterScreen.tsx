import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { Button, Card, Spinner, toast } from '@sealbox/ui';
import { cryptoWorker, isWorkerFailure } from '../../crypto/client.ts';
import { postRegister } from './account-api.ts';
import { ReloadNotice } from './crypto-start.tsx';
import {
  REGISTER_MESSAGES,
  validateConfirmation,
  validateEmail,
  validatePassword,
  validateUsername,
} from './register-validation.ts';
import { useAvailability, type Availability } from './useAvailability.ts';
import './auth.css';

type FieldName = 'username' | 'email' | 'password' | 'confirmPassword';

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

/** Said plainly before an account is made: the password is the only key to the files. */
export const NO_RECOVERY_TITLE = 'There is no password recovery.';
export const NO_RECOVERY_TEXT =
  'Your files are encrypted with your password, so if you forget it, your files are lost for good. Keep it somewhere safe.';

/**
 * docs/product.md "Screens" /register: the registration form, its live checks, and the keys made in
 * the crypto worker.
 */
export function RegisterScreen() {
  const navigate = useNavigate();
  const [values, setValues] = useState<Record<FieldName, string>>({ username: '', email: '', password: '', confirmPassword: '' });
  const [touched, setTouched] = useState<Partial<Record<FieldName, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [workerGone, setWorkerGone] = useState(false);

  const usernameError = validateUsername(values.username);
  const emailError = validateEmail(values.email);
  const passwordError = validatePassword(values.password);
  const confirmError = validateConfirmation(values.password, values.confirmPassword);

  const username = useAvailability('username', values.username, usernameError === undefined);
  const email = useAvailability('email', values.email, values.email !== '' && emailError === undefined);

  // A message shows once the field was typed in or left, or the form was submitted.
  const shown = (name: FieldName) => submitted || touched[name] === true || values[name] !== '';
  const set = (name: FieldName) => (value: string) => setValues((prev) => ({ ...prev, [name]: value }));
  const touch = (name: FieldName) => () => setTouched((prev) => ({ ...prev, [name]: true }));

  const usernameAvailability = availabilityMessage(
    username.state,
    REGISTER_MESSAGES.usernameChecking,
    REGISTER_MESSAGES.usernameTaken,
  );
  const emailAvailability = availabilityMessage(email.state, REGISTER_MESSAGES.emailChecking, REGISTER_MESSAGES.emailTaken);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setSubmitted(true);
    if (usernameError || emailError || passwordError || confirmError) return;
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
            name="username"
            label="Username"
            autoComplete="username"
            value={values.username}
            onChange={set('username')}
            onBlur={touch('username')}
            error={shown('username') ? (usernameError ?? usernameAvailability.error) : undefined}
            status={usernameAvailability.status}
          />
          <Field
            name="email"
            label="Email"
            optional
            type="email"
            autoComplete="email"
            value={values.email}
            onChange={set('email')}
            onBlur={touch('email')}
            error={shown('email') ? (emailError ?? emailAvailability.error) : undefined}
            status={emailAvailability.status}
          />
          <Field
            name="password"
            label="Password"
            type="password"
            autoComplete="new-password"
            value={values.password}
            onChange={set('password')}
            onBlur={touch('password')}
            error={shown('password') ? passwordError : undefined}
          />
          <Field
            name="confirmPassword"
            label="Confirm password"
            type="password"
            autoComplete="new-password"
            value={values.confirmPassword}
            onChange={set('confirmPassword')}
            onBlur={touch('confirmPassword')}
            error={shown('confirmPassword') ? confirmError : undefined}
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
