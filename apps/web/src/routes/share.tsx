import { useMemo, type ReactNode } from 'react';
import { createRoute, useLocation } from '@tanstack/react-router';
import { Card, Spinner } from '@sealbox/ui';
import { cryptoWorker, type KeyHandle } from '../crypto/client.ts';
import { lacksSecureContext } from '../crypto/secure-context.ts';
import { NeedsSecureContext } from '../features/auth/index.ts';
import { FileBrowser, linkMode, nextBrowserSearch, validateShareBrowserSearch } from '../features/files/index.ts';
import {
  LINK_ERROR_TEXT,
  LinkPasswordPrompt,
  linkQueryOptions,
  useLinkAccess,
  useLinkKey,
  type LinkInfo,
} from '../features/sharing/index.ts';
import { rootRoute } from './root.tsx';

/** 32 bytes as unpadded base64url: what a link's fragment holds (docs/protocol.md "Share links"). */
const LINK_KEY_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export const INVALID_LINK_MESSAGE = 'This link is invalid or incomplete.';
export const LINK_KEY_REFUSED_TEXT = 'This link could not be verified.';

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

function Opening() {
  return (
    <section className="page page--center">
      <Spinner label="Opening link" />
    </section>
  );
}

/**
 * docs/product.md "Screens" /share: the file browser in link mode, for anonymous visitors and
 * signed-in users alike. Opening a link takes keys, so it needs a secure context first.
 */
function SharePage() {
  return (
    <NeedsSecureContext>
      <LinkPage />
    </NeedsSecureContext>
  );
}

function LinkPage() {
  const { linkId } = shareRoute.useSearch();
  // The key travels in the fragment, which browsers never send to the server.
  const fragment = useLocation({ select: (location) => location.hash });
  const key = useLinkKey(fragment);

  if (!linkId) return <ShareMessage title={`${LINK_ERROR_TEXT} No link id provided.`} />;
  switch (key.status) {
    case 'checking':
      return <Opening />;
    case 'invalid':
      return (
        <ShareMessage title={INVALID_LINK_MESSAGE}>
          <p>Ask the person who shared it for the complete link, including everything after the “#”.</p>
        </ShareMessage>
      );
    case 'failed':
      return <ShareMessage title="Error decrypting file">{key.message && <p>{key.message}</p>}</ShareMessage>;
    case 'ready':
      return <LinkGate linkId={linkId} linkKey={key.key} />;
  }
}

/** The link's info, its password first when it has one, then the browser. */
function LinkGate({ linkId, linkKey }: { linkId: string; linkKey: KeyHandle }) {
  const access = useLinkAccess(linkId, linkKey);
  switch (access.status) {
    case 'loading':
      return <Opening />;
    case 'password':
      return <LinkPasswordPrompt onSubmit={access.submit} />;
    case 'failed':
      return (
        <ShareMessage title={LINK_ERROR_TEXT}>
          <p>This link does not exist, has expired or was removed.</p>
        </ShareMessage>
      );
    case 'refused':
      return (
        <ShareMessage title={LINK_KEY_REFUSED_TEXT}>
          <p>
            The server named an item that this link’s key does not belong to. Nothing was opened and nothing can be added through
            it. Ask the person who shared it for a new link.
          </p>
        </ShareMessage>
      );
    case 'ready':
      return <LinkBrowser linkId={linkId} info={access.info} />;
  }
}

function LinkBrowser({ linkId, info }: { linkId: string; info: LinkInfo }) {
  const search = shareRoute.useSearch();
  const navigate = shareRoute.useNavigate();
  const mode = useMemo(() => linkMode(linkId, info), [linkId, info]);
  return (
    <FileBrowser
      mode={mode}
      search={search}
      // The fragment (the link key) stays on every navigation inside the link.
      onSearchChange={(patch) => void navigate({ search: (prev) => nextBrowserSearch(prev, patch), hash: true })}
    />
  );
}

export const shareRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/share',
  validateSearch: validateShareBrowserSearch,
  loaderDeps: ({ search }) => ({ linkId: search.linkId }),
  // Before the page renders, and not waited for: the worker starts loading (the link key goes
  // into it first) while the link's info is asked, where each used to wait for the one before
  // (docs/web-files.md "Opening a link"). Only for a page that will open the link: a secure
  // context, and a fragment shaped like a key (the worker still decides whether it is one).
  loader: ({ context, deps, location }) => {
    if (lacksSecureContext() || !deps.linkId || !LINK_KEY_SHAPE.test(location.hash)) return;
    cryptoWorker.start();
    void context.queryClient.prefetchQuery(linkQueryOptions(deps.linkId));
  },
  component: SharePage,
});
