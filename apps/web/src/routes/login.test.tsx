import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { RpcError } from '../lib/worker-rpc.ts';
import { renderApp } from '../test/render-app.tsx';
import { clearSession, isSignedIn } from '../features/auth/session.ts';

const api = vi.hoisted(() => ({ lookupLogin: vi.fn(), postLogin: vi.fn(), postLogout: vi.fn(), getProfile: vi.fn() }));
vi.mock('../features/auth/account-api.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../features/auth/account-api.ts')>()),
  ...api,
}));
const call = vi.hoisted(() => vi.fn());
vi.mock('../crypto/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../crypto/client.ts')>()),
  cryptoWorker: { call },
}));

const KDF = {
  version: 1,
  argon2id: { iterations: 256, memoryKiB: 512, parallelism: 1, hashLength: 32 },
  pbkdf2: { iterations: 120000 },
};
const USER = { id: 'u1', username: 'alice', email: null, avatarExtension: null, totpEnabled: false };
const SEALED = { user: USER, salt: 's', iv: 'i', encryptedPrivateKey: 'e', publicKey: 'p', signingPublicKey: 'q', kdf: KDF };

beforeEach(() => {
  api.lookupLogin.mockResolvedValue({
    ok: true,
    status: 200,
    data: [{ id: 'u1', username: 'alice', passwordSalt: 'salt', kdf: KDF }],
  });
  api.postLogout.mockResolvedValue({ ok: true, status: 204, data: null });
  api.getProfile.mockResolvedValue({ ok: true, status: 200, data: USER });
  call.mockImplementation(async (method: string) => {
    if (method === 'login') return 'login-hash';
    if (method === 'unlock') return { fingerprint: 'abcd' };
    if (method === 'hasKeys') return true;
    return undefined;
  });
});

afterEach(() => {
  cleanup();
  clearSession();
});

async function openLogin(url = '/login') {
  const view = renderApp(url);
  await screen.findByRole('heading', { name: 'Sign in' });
  return view;
}

function submit(username: string, password: string) {
  fireEvent.change(screen.getByLabelText('Username'), { target: { value: username } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('/login messages (docs/product.md "Input rules" and "Messages")', () => {
  it.each([
    ['', 'whatever1', 'Username and password are required.'],
    ['alice', '', 'Username and password are required.'],
    ['al', 'long enough', 'Username must be 3-20 characters long.'],
    ['a'.repeat(21), 'long enough', 'Username must be 3-20 characters long.'],
    ['alice', 'short', 'Password must be at least 8 characters long.'],
  ])('refuses %j / %j locally: %s', async (username, password, message) => {
    await openLogin();
    submit(username, password);
    expect(await screen.findByText(message)).toBeTruthy();
    expect(api.lookupLogin).not.toHaveBeenCalled();
  });

  it('toasts "User does not exist" on a 404 lookup and "Server error" on a 5xx', async () => {
    await openLogin();
    api.lookupLogin.mockResolvedValueOnce({ ok: false, status: 404, message: 'User does not exist' });
    submit('nobody', 'long enough');
    expect(await screen.findByText('User does not exist')).toBeTruthy();
    api.lookupLogin.mockResolvedValueOnce({ ok: false, status: 503, message: undefined });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Server error')).toBeTruthy();
    expect(call).not.toHaveBeenCalledWith('login', expect.anything(), expect.anything());
  });

  it('says "Invalid username or password." on a 401 and stays on the form', async () => {
    const { router } = await openLogin();
    api.postLogin.mockResolvedValueOnce({ ok: false, status: 401, message: 'Invalid username or password' });
    submit('alice', 'wrong password');
    expect(await screen.findByText('Invalid username or password.')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
    expect(call).toHaveBeenCalledWith('login', 'wrong password', { passwordSalt: 'salt', kdf: KDF });
    expect(api.postLogin).toHaveBeenCalledWith({ username: 'alice', password: 'login-hash' });
  });

  it('says "Missing login information. Please try again." when the lookup or the answer lacks fields', async () => {
    await openLogin();
    api.lookupLogin.mockResolvedValueOnce({ ok: true, status: 200, data: [{ id: 'u1' }] });
    submit('alice', 'long enough');
    expect(await screen.findByText('Missing login information. Please try again.')).toBeTruthy();

    api.postLogin.mockResolvedValueOnce({ ok: true, status: 200, data: { user: USER, salt: 's' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await vi.waitFor(() => expect(api.postLogout).toHaveBeenCalled());
    expect(screen.getByText('Missing login information. Please try again.')).toBeTruthy();
  });

  it('says "Login failed. {reason}" when the keys do not unlock', async () => {
    await openLogin();
    api.postLogin.mockResolvedValueOnce({ ok: true, status: 200, data: SEALED });
    call.mockImplementation(async (method: string) => {
      if (method === 'login') return 'login-hash';
      if (method === 'unlock') throw new RpcError('bad tag', 'DECRYPT_FAILED', 'CryptoError');
      return undefined;
    });
    submit('alice', 'long enough');
    expect(await screen.findByText('Login failed. Your keys could not be unlocked with this password.')).toBeTruthy();
    expect(isSignedIn()).toBe(false);
  });

  it('ends a half-done TOTP sign-in when the lookup is refused with 401, and looks up again', async () => {
    await openLogin();
    api.lookupLogin.mockResolvedValueOnce({ ok: false, status: 401, message: 'Sign in required' });
    api.postLogin.mockResolvedValueOnce({ ok: false, status: 401, message: 'nope' });
    submit('alice', 'long enough');
    expect(await screen.findByText('Invalid username or password.')).toBeTruthy();
    expect(api.postLogout).toHaveBeenCalledOnce();
    expect(api.lookupLogin).toHaveBeenCalledTimes(2);
  });

  it('says "Login failed. Please try again." for an unexplained failure', async () => {
    await openLogin();
    api.postLogin.mockResolvedValueOnce({ ok: false, status: 418, message: undefined });
    submit('alice', 'long enough');
    expect(await screen.findByText('Login failed. Please try again.')).toBeTruthy();
  });

  it('moves to the TOTP step on a 307, then signs in and follows the redirect', async () => {
    const { router } = await openLogin('/login?redirect=%2Fabout%3Fx%3D1%23frag');
    api.postLogin
      .mockResolvedValueOnce({ ok: false, status: 307, message: 'Enter the TOTP code from your authenticator app' })
      .mockResolvedValueOnce({ ok: false, status: 401, message: 'bad code' })
      .mockResolvedValueOnce({ ok: true, status: 200, data: SEALED });
    submit('alice', 'long enough');
    expect(await screen.findByLabelText('Enter the TOTP code from your authenticator app')).toBeTruthy();
    const code = screen.getByLabelText('Enter the TOTP code from your authenticator app');
    fireEvent.change(code, { target: { value: '12a3' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify TOTP' }));
    expect(await screen.findByText('Enter the 6-digit code from your authenticator app.')).toBeTruthy();

    fireEvent.change(code, { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify TOTP' }));
    expect(await screen.findByText('Invalid TOTP code. Please try again.')).toBeTruthy();
    expect(router.state.location.search).toEqual({ redirect: '/about?x=1#frag' });
    // The refused code is cleared and the field focused for the next one.
    expect((code as HTMLInputElement).value).toBe('');
    await vi.waitFor(() => expect(document.activeElement).toBe(code));

    fireEvent.change(code, { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify TOTP' }));
    expect(await screen.findByText('Login successful! Redirecting...')).toBeTruthy();
    // The argon2id hash of the first step is reused, not derived again.
    expect(call.mock.calls.filter(([method]) => method === 'login')).toHaveLength(1);
    expect(api.postLogin).toHaveBeenLastCalledWith({ username: 'alice', password: 'login-hash', totpCode: '123456' });
    expect(call).toHaveBeenCalledWith(
      'unlock',
      'long enough',
      expect.objectContaining({ userId: 'u1', salt: 's', publicKey: 'p' }),
    );
    expect(isSignedIn()).toBe(true);
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/about'));
    expect(router.state.location.searchStr).toBe('?x=1');
    expect(router.state.location.hash).toBe('frag');
  });

  it('takes a recovery code instead, and says how many are left after it', async () => {
    const { router } = await openLogin('/login');
    api.postLogin
      .mockResolvedValueOnce({ ok: false, status: 307, message: 'Enter the TOTP code from your authenticator app' })
      .mockResolvedValueOnce({ ok: false, status: 401, message: 'That recovery code is not right or was already used.' })
      .mockResolvedValueOnce({ ok: true, status: 200, data: { ...SEALED, recoveryCodesLeft: 2 } });
    submit('alice', 'long enough');
    await screen.findByLabelText('Enter the TOTP code from your authenticator app');
    fireEvent.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    const code = screen.getByLabelText('Enter one of your recovery codes') as HTMLInputElement;
    await vi.waitFor(() => expect(document.activeElement).toBe(code));
    // The step's own texts stay (docs/product.md "Screens").
    expect(screen.getByRole('button', { name: 'Verify TOTP' })).toBeTruthy();

    fireEvent.change(code, { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify TOTP' }));
    expect(await screen.findByText('A recovery code has 10 letters and digits, like 7hk2m-q9xzp.')).toBeTruthy();
    expect(api.postLogin).toHaveBeenCalledTimes(1);

    fireEvent.change(code, { target: { value: 'ABCDE-FGHJK' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify TOTP' }));
    expect(await screen.findByText('That recovery code is not right or was already used.')).toBeTruthy();
    expect(api.postLogin).toHaveBeenLastCalledWith({ username: 'alice', password: 'login-hash', totpCode: 'abcdefghjk' });
    // Kept for a typo to be mended.
    expect(code.value).toBe('ABCDE-FGHJK');

    fireEvent.change(code, { target: { value: 'abcde fghjm' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify TOTP' }));
    expect(
      await screen.findByText('Signed in with a recovery code. Only 2 of 10 left: make new ones on your Profile.'),
    ).toBeTruthy();
    expect(api.postLogin).toHaveBeenLastCalledWith({ username: 'alice', password: 'login-hash', totpCode: 'abcdefghjm' });
    fireEvent.click(screen.getByRole('button', { name: 'Open Profile' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
  });
});
