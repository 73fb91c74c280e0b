/**
 * Forgot password (docs/web-accounts.md "Recovery phrase"): the username, the 24 words (checked in
 * the crypto worker before anything is sent, with suggestions from the word list as they are
 * typed) and a new password twice. The worker proves the phrase, opens the account's recovery
 * copy and seals the same keys under the new password; then the user is signed in.
 */
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useState, type FormEvent } from 'react';
import { Button, Card, toast } from '@sealbox/ui';
import { cryptoWorker } from '../../crypto/client.ts';
import { UsernameInput } from '../../lib/LabelledInput.tsx';
import { NewPasswordFields } from './NewPasswordFields.tsx';
import { postRecoveryOpen, postRecoveryReset } from './account-api.ts';
import { signIn } from './login-flow.ts';
import { RECOVERY_TEXT, completeWord, wordBeingTyped } from './recovery-text.ts';
import { DEFAULT_AFTER_LOGIN } from './redirect.ts';
import { validateConfirmation, validatePassword } from './register-validation.ts';
import { startSession } from './session.ts';
import { FormError } from '../../lib/FormError.tsx';

export function RecoverScreen() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [username, setUsername] = useState('');
  const [phrase, setPhrase] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [suggestions, setSuggestions] = useState<string[]>([]);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const typed = wordBeingTyped(phrase);
  useEffect(() => {
    let current = true;
    void cryptoWorker
      .call('recoveryWords', typed)
      .then((words) => current && setSuggestions(words.length === 1 && words[0] === typed ? [] : words))
      .catch(() => current && setSuggestions([]));
    return () => {
      current = false;
    };
  }, [typed]);

  const problem = async (): Promise<string | undefined> => {
    if (username.trim() === '') return RECOVERY_TEXT.usernameRequired;
    if (phrase.trim() === '') return RECOVERY_TEXT.phraseRequired;
    const wrongWords = await cryptoWorker.call('phraseProblem', phrase);
    return wrongWords ?? validatePassword(password) ?? validateConfirmation(password, confirmation);
  };

  const recover = async () => {
    const auth = await cryptoWorker.call('recoveryAuth', phrase);
    const copy = await postRecoveryOpen(username.trim(), auth);
    if (!copy.ok) return setError(copy.status === 401 ? RECOVERY_TEXT.refused : (copy.message ?? RECOVERY_TEXT.failed));
    const reset = await cryptoWorker.call('recover', phrase, copy.data, password);
    const done = await postRecoveryReset({ username: username.trim(), ...reset });
    if (!done.ok) return setError(done.message ?? RECOVERY_TEXT.failed);
    const outcome = await signIn({ username: username.trim(), password }).catch(() => undefined);
    if (outcome?.kind === 'signed-in') {
      startSession(queryClient, outcome.profile);
      await navigate({ to: DEFAULT_AFTER_LOGIN, replace: true });
    } else await navigate({ to: '/login', state: { username: username.trim() } });
    toast(RECOVERY_TEXT.done, 'success');
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      const found = await problem();
      setError(found);
      if (!found) await recover();
    } catch {
      setError(RECOVERY_TEXT.failed);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="auth-page">
      <Card className="auth-card">
        <h1>{RECOVERY_TEXT.title}</h1>
        <p className="auth-card__lead">{RECOVERY_TEXT.lead}</p>
        <form className="form" onSubmit={(e) => void submit(e)} noValidate aria-busy={busy}>
          <UsernameInput value={username} onChange={setUsername} />
          <label className="field">
            <span>Recovery phrase</span>
            <textarea
              name="recovery-phrase"
              className="recovery-phrase-input"
              rows={4}
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              value={phrase}
              onChange={(e) => setPhrase(e.target.value)}
            />
          </label>
          {suggestions.length > 0 && (
            <fieldset className="recovery-suggestions">
              <legend className="sb-visually-hidden">Matching words</legend>
              {suggestions.map((word) => (
                <Button key={word} size="sm" variant="secondary" onClick={() => setPhrase(completeWord(phrase, word))}>
                  {word}
                </Button>
              ))}
            </fieldset>
          )}
          <NewPasswordFields
            password={password}
            confirmation={confirmation}
            onPassword={setPassword}
            onConfirmation={setConfirmation}
          />
          <FormError error={error} />
          <Button type="submit" size="lg" disabled={busy}>
            {busy ? 'Recovering…' : 'Set new password'}
          </Button>
        </form>
        <p className="auth-card__footer">
          Remembered it? <Link to="/login">Sign in</Link>
        </p>
      </Card>
    </div>
  );
}
