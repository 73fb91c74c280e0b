import type { ReactNode } from 'react';
import { createRoute, useLocation } from '@tanstack/react-router';
import { Card, Spinner } from '@sealbox/ui';
import { validateShareBrowserSearch } from '../features/files/index.ts';
import { useLinkKey } from '../features/sharing/index.ts';
import { rootRoute } from './root.tsx';

export const INVALID_LINK_MESSAGE = 'This link is invalid or incomplete.';

function ShareMessage({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <section className="page page--narrow">
      <Card role="alert">
        <h1>{title}</h1>
        {children}
      </Card>
    </section>
  );
}

function SharePage() {
  const { linkId } = shareRoute.useSearch();
  // The key travels in the fragment, which browsers never send to the server.
  const fragment = useLocation({ select: (location) => location.hash });
  const key = useLinkKey(fragment);

  if (!linkId) return <ShareMessage title="Error retrieving files. No link id provided." />;
  switch (key.status) {
    case 'checking':
      return (
        <section className="page page--center">
          <Spinner label="Opening link" />
        </section>
      );
    case 'invalid':
      return (
        <ShareMessage title={INVALID_LINK_MESSAGE}>
          <p>Ask the person who shared it for the complete link, including everything after the “#”.</p>
        </ShareMessage>
      );
    case 'failed':
      return <ShareMessage title="Error decrypting file">{key.message && <p>{key.message}</p>}</ShareMessage>;
    case 'ready':
      return (
        <section className="page">
          <h1>Shared files</h1>
          <p className="muted">The link key is ready. Shared files will appear here.</p>
        </section>
      );
  }
}

export const shareRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/share',
  validateSearch: validateShareBrowserSearch,
  component: SharePage,
});
