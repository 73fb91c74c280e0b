/**
 * A new recovery phrase, shown once (docs/web-accounts.md "Recovery phrase"): the 24 words with
 * Copy, Download and Print, then three of them typed back before it is saved with
 * PUT /api/account/recovery. Used at registration and from Profile.
 */
import { useMemo, useState, type FormEvent } from 'react';
import { Button } from '@sealbox/ui';
import { LabelledInput } from '../../lib/LabelledInput.tsx';
import { putRecovery } from './account-api.ts';
import { PHRASE_TEXT, checkWords, pickPositions } from './recovery-text.ts';
import { FormError } from '../../lib/FormError.tsx';
import { KeepActions } from './KeepActions.tsx';

export interface RecoverySetupData {
  phrase: string;
  recoveryAuth: string;
  recoverySealed: string;
  recoveryNonce: string;
}

export function RecoveryPhraseSteps({
  setup,
  loginHash,
  username,
  onSaved,
}: {
  setup: RecoverySetupData;
  /** The current login password, which the server asks for to store a phrase. */
  loginHash: string;
  username: string;
  onSaved: (createdAt: number) => void;
}) {
  const words = useMemo(() => setup.phrase.split(' '), [setup.phrase]);
  // A phrase may hold a word twice: its place in the phrase is what tells the items apart.
  const numbered = useMemo(() => words.map((word, i) => ({ n: i + 1, word })), [words]);
  const positions = useMemo(() => pickPositions(words.length, 3), [words.length]);
  const [step, setStep] = useState<'show' | 'confirm'>('show');
  const [typed, setTyped] = useState<string[]>(['', '', '']);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const problem = checkWords(words, positions, typed);
    setError(problem);
    if (problem) return;
    setBusy(true);
    try {
      const { phrase: _, ...copyOf } = setup;
      const answer = await putRecovery({ currentPassword: loginHash, ...copyOf });
      if (!answer.ok) return setError(answer.message ?? PHRASE_TEXT.saveFailed);
      onSaved(answer.data.createdAt);
    } catch {
      setError(PHRASE_TEXT.saveFailed);
    } finally {
      setBusy(false);
    }
  };

  if (step === 'show') {
    return (
      <div className="recovery-steps">
        <p className="auth-card__warning">{PHRASE_TEXT.keepSafe}</p>
        <ol className="recovery-words" aria-label="Your recovery phrase">
          {numbered.map(({ n, word }) => (
            <li key={n}>
              <span className="recovery-words__n">{n}</span> {word}
            </li>
          ))}
        </ol>
        <KeepActions
          copyText={setup.phrase}
          fileText={`${PHRASE_TEXT.fileHeading(username)}\n\n${words.map((w, i) => `${i + 1}. ${w}`).join('\n')}\n`}
          fileName={`sealbox-recovery-phrase-${username}.txt`}
          messages={PHRASE_TEXT}
        />
        <Button onClick={() => setStep('confirm')}>{PHRASE_TEXT.written}</Button>
      </div>
    );
  }
  return (
    <form className="form recovery-steps" onSubmit={(e) => void save(e)} noValidate aria-busy={busy}>
      <p>{PHRASE_TEXT.typeBack}</p>
      {positions.map((position, i) => (
        <LabelledInput
          key={position}
          label={`Word ${position + 1}`}
          name={`word-${position + 1}`}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          value={typed[i] ?? ''}
          onChange={(value) => setTyped((old) => old.map((w, j) => (j === i ? value : w)))}
        />
      ))}
      <FormError error={error} />
      <div className="recovery-steps__actions">
        <Button variant="ghost" onClick={() => setStep('show')} disabled={busy}>
          Show the words again
        </Button>
        <Button type="submit" disabled={busy}>
          Save recovery phrase
        </Button>
      </div>
    </form>
  );
}
