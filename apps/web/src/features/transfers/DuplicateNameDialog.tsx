/**
 * The question of upload-names.ts, asked in a dialog: a picked or dropped file's name is taken
 * in the folder. Keep both, Replace (files only: a new version of the old file) or Skip, with "apply to all" for several.
 * Mounted once (TransfersHost); `askDuplicate` puts a question up and resolves with the answer.
 */
import { useId, useState, useSyncExternalStore } from 'react';
import { Button, Dialog } from '@sealbox/ui';
import type { ClashAnswer, ClashQuestion } from './upload-names.ts';

interface Pending {
  question: ClashQuestion;
  resolve(answer: ClashAnswer): void;
}

let pending: Pending | undefined;
const listeners = new Set<() => void>();
const set = (next: Pending | undefined) => {
  pending = next;
  for (const listener of listeners) listener();
};

/** Questions wait their turn: a second drop while one is up must not replace (and lose) it. */
let queue: Promise<unknown> = Promise.resolve();

/** Bumped by `dismissDuplicates`: questions queued before it are skipped without being shown. */
let round = 0;
const SKIP_ALL: ClashAnswer = { choice: 'skip', all: true };

/** Shows `question`; resolves once the user answers (Escape or closing skips the file). */
export function askDuplicate(question: ClashQuestion): Promise<ClashAnswer> {
  const asked = round;
  const answer = queue.then(() =>
    asked === round ? new Promise<ClashAnswer>((resolve) => set({ question, resolve })) : SKIP_ALL,
  );
  queue = answer;
  return answer;
}

/** Skips the question on screen and every one waiting (sign-out). */
export function dismissDuplicates(): void {
  round++;
  const current = pending;
  set(undefined);
  current?.resolve(SKIP_ALL);
}

function usePending(): Pending | undefined {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => pending,
  );
}

export function DuplicateNameDialog() {
  const current = usePending();
  const [all, setAll] = useState(false);
  const checkId = useId();
  const question = current?.question;
  const answer = (choice: ClashAnswer['choice']) => {
    if (!current) return;
    set(undefined);
    current.resolve({ choice, all: all && (question?.remaining ?? 1) > 1 });
    setAll(false);
  };
  const kind = question?.isDirectory ? 'A folder' : 'A file';
  const restoring = question?.action === 'restore';
  return (
    <Dialog
      open={question !== undefined}
      onOpenChange={(open) => !open && answer('skip')}
      title="This name is already used"
      className="duplicate-dialog"
      footer={
        <>
          <Button variant="ghost" onClick={() => answer('skip')}>
            Skip
          </Button>
          {question?.canReplace && (
            <Button variant="secondary" onClick={() => answer('replace')}>
              Replace
            </Button>
          )}
          <Button onClick={() => answer('keep')} data-autofocus>
            Keep both
          </Button>
        </>
      }
    >
      {question && (
        <div className="duplicate-dialog__body">
          <p>
            {kind} named <strong className="duplicate-dialog__name">{question.name}</strong> is already in this folder.
          </p>
          <p className="duplicate-dialog__hint">
            {restoring
              ? 'Keep both restores it under a numbered name. Skip leaves it in the trash.'
              : question.canReplace
                ? 'Keep both uploads the new file under a numbered name. Replace keeps the old file as an earlier version, with its shares and links.'
                : 'Keep both uploads the new file under a numbered name.'}
          </p>
          {question.remaining > 1 && (
            <label className="duplicate-dialog__all" htmlFor={checkId}>
              <input id={checkId} type="checkbox" checked={all} onChange={(e) => setAll(e.currentTarget.checked)} />
              {restoring
                ? `Apply to every name already used among the ${question.remaining} items left to restore`
                : `Apply to all ${question.remaining} files with names already used`}
            </label>
          )}
        </div>
      )}
    </Dialog>
  );
}
