import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { fakeSignIn, renderApp } from '../../test/render-app.tsx';
import { returnPathOf, safeRedirectPath } from './redirect.ts';
import { clearSession } from './session.ts';

afterEach(() => {
  cleanup();
  // A signed-in test leaves no session behind for the next file (bun test shares modules).
  clearSession();
});

describe('returnPathOf', () => {
  it('keeps path, query and hash', () => {
    expect(returnPathOf({ pathname: '/files', searchStr: '?view=grid', hash: 'frag' })).toBe('/files?view=grid#frag');
    expect(returnPathOf({ pathname: '/shared', searchStr: '', hash: '' })).toBe('/shared');
  });
});

describe('safeRedirectPath', () => {
  it('accepts in-app paths only', () => {
    expect(safeRedirectPath('/files?view=grid#frag')).toBe('/files?view=grid#frag');
    for (const bad of ['//evil.example', '/\\evil.example', 'https://evil.example', 'files', '/\nx', 42, undefined]) {
      expect(safeRedirectPath(bad)).toBeUndefined();
    }
  });
});

describe('protected routes', () => {
  it.each(['/files', '/shared', '/profile', '/test'])('%s sends a signed-out visitor to /login', async (path) => {
    const { router } = renderApp(path);
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toEqual({ redirect: path });
  });

  it('keeps the original query and hash in the redirect parameter', async () => {
    const { router } = renderApp('/files?view=grid&sortBy=name#frag');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toEqual({ redirect: '/files?view=grid&sortBy=name#frag' });
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
  });

  it('waits for the first profile check instead of redirecting a signed-in user', async () => {
    let signedIn = false;
    let finish!: () => void;
    const checked = new Promise<void>((resolve) => (finish = resolve));
    const { router } = renderApp('/files?view=grid', { auth: { isSignedIn: () => signedIn, ready: () => checked } });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(router.state.location.pathname).toBe('/files');
    signedIn = true; // the server answered 200
    fakeSignIn();
    finish();
    expect(await screen.findByRole('heading', { name: 'My Files' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/files');
  });

  it('redirects once the first profile check says signed out', async () => {
    const { router } = renderApp('/profile', { auth: { isSignedIn: () => false, ready: () => Promise.resolve() } });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toEqual({ redirect: '/profile' });
  });

  it('lets a signed-in user through', async () => {
    renderApp('/files?view=grid', { signedIn: true });
    expect(await screen.findByRole('heading', { name: 'My Files' })).toBeTruthy();
  });
});

describe('/', () => {
  it('goes to /home when signed out', async () => {
    const { router } = renderApp('/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
  });

  it('goes to /files when signed in', async () => {
    const { router } = renderApp('/', { signedIn: true });
    await waitFor(() => expect(router.state.location.pathname).toBe('/files'));
  });
});
