import { useState, type FormEvent } from 'react';
import { Button, Card, Spinner } from '@sealbox/ui';
import { INVALID_PASSWORD_TEXT, LINK_ERROR_TEXT, PASSWORD_PROMPT_TEXT } from './link-api.ts';

/**
 * docs/product.md "Screens" and "Messages": a password link asks first; 'Invalid password!' on a
 * wrong one, submit disabled while blank.
 */
export function LinkPasswordPrompt({ onSubmit }: { onSubmit: (password: string) => Promise<boolean> }) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  // Links never get a password of spaces only (the Links tab leaves such a link open), so none is tried.
  const blank = password.trim() === '';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (blank || busy) return;
    setBusy(true);
    setError(undefined);
    onSubmit(password).then(
      (ok) => {
        setBusy(false);
        if (!ok) setError(INVALID_PASSWORD_TEXT);
      },
      () => {
        setBusy(false);
        setError(LINK_ERROR_TEXT);
      },
    );
  };
  return (
    <section className="page page--narrow">
      <Card className="link-password">
        <form className="form" onSubmit={submit} noValidate aria-busy={busy}>
          <label className="field">
            <span>{PASSWORD_PROMPT_TEXT}</span>
            <input
              name="link-password"
              type="password"
              autoComplete="off"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </label>
          {error && (
            <p className="form__error" role="alert">
              {error}
            </p>
          )}
          <Button type="submit" disabled={blank || busy}>
            {busy ? <Spinner size={18} label="Checking password" /> : 'Submit'}
          </Button>
        </form>
      </Card>
    </section>
  );
}
