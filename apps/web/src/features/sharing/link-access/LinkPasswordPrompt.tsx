import { useState, type FormEvent } from 'react';
import { Button, Card, Spinner } from '@sealbox/ui';
import { LabelledInput } from '../../../lib/LabelledInput.tsx';
import './link-access.css';
import { INVALID_PASSWORD_TEXT, LINK_ERROR_TEXT, PASSWORD_PROMPT_TEXT } from './link-api.ts';
import { FormError } from '../../../lib/FormError.tsx';

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
        <h1 className="link-password__title">A password protects this link</h1>
        <p className="link-password__why">
          The person who shared it set one. If you do not have it, ask them; Sealbox cannot tell it to you.
        </p>
        <form className="form" onSubmit={submit} noValidate aria-busy={busy}>
          <LabelledInput
            label={PASSWORD_PROMPT_TEXT}
            name="link-password"
            type="password"
            autoComplete="off"
            value={password}
            onChange={setPassword}
          />
          <FormError error={error} />
          <Button type="submit" disabled={blank || busy}>
            {busy ? <Spinner size={18} label="Checking password" /> : 'Submit'}
          </Button>
        </form>
      </Card>
    </section>
  );
}
