/**
 * Copy, Download and Print for what is shown once and must be kept: a recovery phrase, TOTP
 * recovery codes (docs/web-accounts.md). Print prints only the `.recovery-words` list (auth.css).
 */
import { Button, toast } from '@sealbox/ui';

function printShown(): void {
  document.documentElement.dataset.printRecovery = '';
  try {
    window.print();
  } finally {
    delete document.documentElement.dataset.printRecovery;
  }
}

export function KeepActions({
  copyText,
  fileText,
  fileName,
  messages,
}: {
  /** What Copy puts on the clipboard. */
  copyText: string;
  /** The downloaded text file's content, and its name. */
  fileText: string;
  fileName: string;
  messages: { copied: string; copyFailed: string };
}) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(copyText);
      toast(messages.copied, 'success');
    } catch {
      toast(messages.copyFailed, 'error');
    }
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([fileText], { type: 'text/plain' }));
    const a = Object.assign(document.createElement('a'), { href: url, download: fileName });
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  return (
    <div className="recovery-steps__actions">
      <Button size="sm" variant="secondary" onClick={() => void copy()}>
        Copy
      </Button>
      <Button size="sm" variant="secondary" onClick={download}>
        Download
      </Button>
      <Button size="sm" variant="secondary" onClick={printShown}>
        Print
      </Button>
    </div>
  );
}
