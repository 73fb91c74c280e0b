/**
 * New TOTP recovery codes, shown once (docs/web-accounts.md "TOTP recovery codes"): the ten codes
 * with Copy, Download and Print, as the recovery phrase is shown, then back to the card.
 */
import { Button } from '@sealbox/ui';
import { KeepActions } from '../auth/index.ts';

export const CODES_TEXT = {
  keepSafe:
    'Save these recovery codes somewhere safe, apart from your authenticator app. If you lose the app, each code signs you in once in place of its code. They are shown only now.',
  saved: 'I have saved them',
  copied: 'Recovery codes copied',
  copyFailed: 'Failed to copy. Download or print them instead.',
  fileHeading: (username: string) =>
    `Sealbox TOTP recovery codes for ${username}. Each one signs in once in place of a code from the authenticator app.`,
} as const;

export function RecoveryCodesShown({ codes, username, onDone }: { codes: string[]; username: string; onDone: () => void }) {
  return (
    <div className="recovery-steps">
      <p className="auth-card__warning">{CODES_TEXT.keepSafe}</p>
      <ol className="recovery-words recovery-codes" aria-label="Your recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <KeepActions
        copyText={`${codes.join('\n')}\n`}
        fileText={`${CODES_TEXT.fileHeading(username)}\n\n${codes.join('\n')}\n`}
        fileName={`sealbox-recovery-codes-${username}.txt`}
        messages={CODES_TEXT}
      />
      <Button onClick={onDone}>{CODES_TEXT.saved}</Button>
    </div>
  );
}
