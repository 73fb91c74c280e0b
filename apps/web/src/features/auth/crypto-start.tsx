/**
 * What the pages that need keys say when the encryption code cannot start, instead of forms that
 * wait forever (docs/product.md "Messages"): outside a secure context nothing can be made at all;
 * with the crypto worker gone (a tab left open across an upgrade) a reload fetches the new one.
 */
import type { ReactNode } from 'react';
import { Button, Card } from '@sealbox/ui';
import { lacksSecureContext } from '../../crypto/client.ts';
import './auth.css';

export const CRYPTO_START_MESSAGES = {
  insecure: 'Sealbox needs HTTPS or localhost',
  insecureHelp:
    'This browser makes your keys only on a secure page. Open Sealbox through its https:// address, or on localhost; whoever runs it can set that up (docs/operations.md, "Reverse proxy").',
  updated: 'Sealbox was updated: reload',
} as const;

/** Its children, or the blocking HTTPS message when this page cannot make keys. */
export function NeedsSecureContext({ children }: { children: ReactNode }) {
  if (!lacksSecureContext()) return children;
  return (
    <div className="auth-page">
      <Card className="auth-card" role="alert">
        <h1>{CRYPTO_START_MESSAGES.insecure}</h1>
        <p>{CRYPTO_START_MESSAGES.insecureHelp}</p>
      </Card>
    </div>
  );
}

/** In a form whose crypto worker did not start: the message and a Reload button. */
export function ReloadNotice() {
  return (
    <div className="auth-card__reload" role="alert">
      <p>{CRYPTO_START_MESSAGES.updated}</p>
      <Button variant="secondary" onClick={() => window.location.reload()}>
        Reload
      </Button>
    </div>
  );
}
