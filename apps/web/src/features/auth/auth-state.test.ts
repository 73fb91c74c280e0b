import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { applyProfile, logout, syncProfile } from './auth-state.ts';
import { SESSION_MARKER_KEY, clearSession, isSignedIn, setSession, startSession } from './session.ts';

const { overriding } = await vi.hoisted(() => import('../../test/mock-module.ts'));
const api = vi.hoisted(() => ({ getProfile: vi.fn(), postLogout: vi.fn() }));
vi.mock('./account-api.ts', overriding(api));
const call = vi.hoisted(() => vi.fn());
vi.mock('../../crypto/client.ts', overriding({ cryptoWorker: { call } }));

const PROFILE = { id: 'u1', username: 'alice' } as Parameters<typeof applyProfile>[0] & object;

afterEach(() => {
  clearSession();
  vi.clearAllMocks();
});

describe('auth state', () => {
  it('asks nothing when no session is expected', async () => {
    expect(await syncProfile(new QueryClient())).toBe('signed-out');
    expect(api.getProfile).not.toHaveBeenCalled();
  });

  it('a 401 for a session this browser believed in forgets the keys and the marker', async () => {
    setSession({ userId: 'u1', username: 'alice' });
    api.getProfile.mockResolvedValue({ ok: false, status: 401, message: 'Sign in required' });
    expect(await syncProfile(new QueryClient())).toBe('lost');
    expect(call).toHaveBeenCalledWith('forgetKeys');
    expect(isSignedIn()).toBe(false);
    expect(localStorage.getItem(SESSION_MARKER_KEY)).toBeNull();
  });

  it('signed in but without the keys here: logs out on the server too (docs/product.md "Messages")', async () => {
    call.mockImplementation(async (method: string) => (method === 'hasKeys' ? false : undefined));
    api.postLogout.mockResolvedValue({ ok: true, status: 204, data: null });
    expect(await applyProfile(PROFILE)).toBe('lost');
    expect(call).toHaveBeenCalledWith('hasKeys', 'u1');
    expect(api.postLogout).toHaveBeenCalledOnce();
    expect(call).toHaveBeenCalledWith('forgetKeys');
    expect(isSignedIn()).toBe(false);
  });

  it('signed in with the keys: sets the session', async () => {
    call.mockImplementation(async (method: string) => (method === 'hasKeys' ? true : undefined));
    expect(await applyProfile(PROFILE)).toBe('signed-in');
    expect(isSignedIn()).toBe(true);
    expect(api.postLogout).not.toHaveBeenCalled();
  });

  it('a profile check landing while this tab logs out reports no lost session', async () => {
    setSession({ userId: 'u1', username: 'alice' });
    api.postLogout.mockResolvedValue({ ok: true, status: 204, data: null });
    // The server already ended the session: the racing check gets 401.
    api.getProfile.mockResolvedValue({ ok: false, status: 401, message: 'Sign in required' });
    let racing: Promise<unknown> | undefined;
    await logout(new QueryClient(), async () => {
      racing = syncProfile(new QueryClient());
      await racing;
    });
    expect(await racing).toBe('signed-out');
    // Not even asked: the check would only have met this logout's 401.
    expect(api.getProfile).not.toHaveBeenCalled();
    expect(api.postLogout).toHaveBeenCalledOnce();
    expect(isSignedIn()).toBe(false);
  });

  it('a check sent before a sign-in in this tab, answered after it, leaves the new session alone', async () => {
    // Another account's session was here (its cookie, its marker); this tab signs in as bob
    // while the check for alice is still on its way.
    setSession({ userId: 'u1', username: 'alice' });
    let answer: (value: unknown) => void = () => undefined;
    api.getProfile.mockImplementation(() => new Promise((resolve) => (answer = resolve)));
    call.mockImplementation(async (method: string, id?: string) => (method === 'hasKeys' ? id === 'u2' : undefined));
    const queryClient = new QueryClient();
    const check = syncProfile(queryClient);
    startSession(queryClient, { id: 'u2', username: 'bob' } as Parameters<typeof startSession>[1]);
    answer({ ok: true, status: 200, data: PROFILE });
    expect(await check).toBe('unknown');
    expect(api.postLogout).not.toHaveBeenCalled();
    expect(call).not.toHaveBeenCalledWith('forgetKeys');
    expect(isSignedIn()).toBe(true);
  });

  it('leaves everything alone when the server cannot be asked', async () => {
    setSession({ userId: 'u1', username: 'alice' });
    api.getProfile.mockResolvedValue({ ok: false, status: 503, message: undefined });
    expect(await syncProfile(new QueryClient())).toBe('unknown');
    expect(isSignedIn()).toBe(true);
    expect(call).not.toHaveBeenCalled();
  });
});
