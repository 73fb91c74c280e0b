/** The texts of the recovery phrase screens (docs/web-accounts.md "Recovery phrase"). */
export const RECOVERY_TEXT = {
  title: 'Recover your account',
  lead: 'Type the 24 words of your recovery phrase and choose a new password. Your files stay as they are.',
  usernameRequired: 'Enter your username',
  phraseRequired: 'Enter your 24-word recovery phrase',
  refused: 'The recovery phrase does not match this account.',
  failed: 'Recovery failed. Please try again.',
  done: 'Your new password is set. Two-factor authentication is off and every other session was signed out.',
  forgot: 'Forgot password?',
} as const;

/** The word being typed at the end of a phrase (what suggestions complete), or '' after a space. */
export function wordBeingTyped(phrase: string): string {
  if (phrase === '' || /\s$/.test(phrase)) return '';
  return phrase.split(/\s+/).at(-1) ?? '';
}

/** The phrase with its last, partly typed word replaced by `word`, and a space to go on. */
export function completeWord(phrase: string, word: string): string {
  const typed = wordBeingTyped(phrase);
  return `${phrase.slice(0, phrase.length - typed.length)}${word} `;
}

/** The texts of a new phrase's steps (RecoveryPhraseSteps.tsx). */
export const PHRASE_TEXT = {
  keepSafe:
    'Write these 24 words down, in order, and keep them somewhere safe. They are the only way back into your files if you forget your password, and anyone who has them can take over your account. They are shown only now.',
  written: 'I have written them down',
  typeBack: 'To be sure they are written down right, type these three words of your phrase.',
  mismatch: (position: number) => `Word ${position} does not match. Check what you wrote down.`,
  copied: 'Recovery phrase copied',
  copyFailed: 'Failed to copy. Write the words down instead.',
  saveFailed: 'The recovery phrase could not be saved. Please try again.',
  fileHeading: (username: string) =>
    `Sealbox recovery phrase for ${username}. Keep it safe; anyone who has it can take over the account.`,
} as const;

/** `count` distinct word positions (0-based) of `length`, in order: the words to type back. */
export function pickPositions(length: number, count: number, random: () => number = Math.random): number[] {
  const picked = new Set<number>();
  while (picked.size < Math.min(count, length)) picked.add(Math.floor(random() * length));
  return [...picked].sort((a, b) => a - b);
}

/** The first typed-back word that differs from the phrase (case and spaces aside), as a message. */
export function checkWords(words: string[], positions: number[], typed: string[]): string | undefined {
  for (const [i, position] of positions.entries()) {
    if ((typed[i] ?? '').trim().toLowerCase() !== words[position]) return PHRASE_TEXT.mismatch(position + 1);
  }
  return undefined;
}
