import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { renderApp } from '../test/render-app.tsx';

const api = vi.hoisted(() => ({ checkAvailable: vi.fn(), postRegister: vi.fn(), putRecovery: vi.fn() }));
vi.mock('../features/auth/account-api.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../features/auth/account-api.ts')>()),
  checkAvailable: api.checkAvailable,
  postRegister: api.postRegister,
  putRecovery: api.putRecovery,
}));
const call = vi.hoisted(() => vi.fn());
vi.mock('../crypto/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../crypto/client.ts')>()),
  cryptoWorker: { call },
}));

const flow = vi.hoisted(() => ({ signIn: vi.fn() }));
vi.mock('../features/auth/login-flow.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../features/auth/login-flow.ts')>()),
  signIn: flow.signIn,
}));

const free = { ok: true, status: 200, data: { ok: true } };
const taken = { ok: true, status: 200, data: { ok: false } };

async function openRegister() {
  const view = renderApp('/register');
  await screen.findByRole('heading', { name: 'Create your account' });
  return view;
}

const input = (name: string) => document.querySelector<HTMLInputElement>(`input[name="${name}"]`)!;
const type = (name: string, value: string) => fireEvent.change(input(name), { target: { value } });
const text = () => document.body.textContent ?? '';

beforeEach(() => {
  api.checkAvailable.mockResolvedValue(free);
  flow.signIn.mockResolvedValue({ kind: 'failed', failure: { message: 'Login failed. Please try again.', display: 'toast' } });
});

afterEach(() => {
  vi.useRealTimers();
  cleanup();
});

describe('/register validation (docs/product.md "Input rules")', () => {
  it('shows every field message with its exact text', async () => {
    await openRegister();
    type('username', 'ab');
    expect(screen.getByText('Username must be 3-20 characters long.')).toBeTruthy();
    type('username', 'a'.repeat(21));
    expect(screen.getByText('Username must be 3-20 characters long.')).toBeTruthy();
    type('email', 'not-an-address');
    expect(screen.getByText('Invalid email!')).toBeTruthy();
    type('password', 'short');
    expect(screen.getByText('Password must be at least 8 characters long.')).toBeTruthy();
    type('password', '');
    fireEvent.blur(input('password'));
    expect(screen.getByText('Password is required')).toBeTruthy();
    type('password', 'long enough');
    type('confirmPassword', 'long enougH');
    expect(screen.getByText('Passwords do not match')).toBeTruthy();
    type('confirmPassword', 'long enough');
    expect(text()).not.toContain('Passwords do not match');
  });

  it('shows the required messages on submit of an empty form and sends nothing', async () => {
    await openRegister();
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('Username must be 3-20 characters long.')).toBeTruthy();
    expect(screen.getByText('Password is required')).toBeTruthy();
    expect(text()).not.toContain('Invalid email!'); // optional
    expect(call).not.toHaveBeenCalled();
    expect(api.postRegister).not.toHaveBeenCalled();
  });

  it('checks the username 700 ms after the last keystroke, and says when it is taken', async () => {
    await openRegister();
    vi.useFakeTimers();
    api.checkAvailable.mockResolvedValue(taken);
    type('username', 'ali');
    act(() => vi.advanceTimersByTime(400));
    type('username', 'alice');
    expect(screen.getByText('Checking if username already exists')).toBeTruthy();
    act(() => vi.advanceTimersByTime(699));
    expect(api.checkAvailable).not.toHaveBeenCalled();
    await act(async () => {
      vi.advanceTimersByTime(1);
    });
    expect(api.checkAvailable).toHaveBeenCalledTimes(1);
    expect(api.checkAvailable).toHaveBeenCalledWith('username', 'alice');
    expect(screen.getByText('Username is already in use!')).toBeTruthy();
    expect(text()).not.toContain('Checking if username already exists');
  });

  it('does not check an invalid username, and checks a valid email the same way', async () => {
    await openRegister();
    vi.useFakeTimers();
    type('username', 'ab');
    act(() => vi.advanceTimersByTime(2000));
    expect(api.checkAvailable).not.toHaveBeenCalled();
    api.checkAvailable.mockResolvedValue(taken);
    type('email', 'bob@example.org');
    await act(async () => {
      vi.advanceTimersByTime(700);
    });
    expect(api.checkAvailable).toHaveBeenCalledWith('email', 'bob@example.org');
    expect(screen.getByText('Email is already in use!')).toBeTruthy();
  });

  it('registers, signs in, shows the recovery phrase, asks three words back, then goes to /files', async () => {
    const { router } = await openRegister();
    const words = Array.from({ length: 24 }, (_, i) => `word${i + 1}`);
    const setup = { phrase: words.join(' '), recoveryAuth: 'ra', recoverySealed: 'rs', recoveryNonce: 'rn' };
    call.mockImplementation(async (method: string) => (method === 'makeRecovery' ? setup : { password: 'h' }));
    api.postRegister.mockResolvedValue({ ok: true, status: 201, data: { id: 'u1' } });
    api.putRecovery.mockResolvedValue({ ok: true, status: 200, data: { createdAt: 1 } });
    const profile = { id: 'u1', username: 'alice', usedSpace: 0, totalSpace: 1, gridView: false };
    flow.signIn.mockResolvedValue({ kind: 'signed-in', profile, fingerprint: 'f' });
    type('username', 'alice');
    type('password', 'long enough');
    type('confirmPassword', 'long enough');
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    const list = await screen.findByRole('list', { name: 'Your recovery phrase' });
    expect(list.querySelectorAll('li')).toHaveLength(24);
    expect(flow.signIn).toHaveBeenCalledWith({ username: 'alice', password: 'long enough' });
    expect(call).toHaveBeenCalledWith('makeRecovery', 'long enough', expect.objectContaining({ userId: 'u1', password: 'h' }));
    fireEvent.click(screen.getByRole('button', { name: 'I have written them down' }));
    const asked = [...document.querySelectorAll<HTMLInputElement>('input[name^="word-"]')];
    expect(asked).toHaveLength(3);
    // One wrong word: refused in place, nothing saved.
    for (const field of asked) fireEvent.change(field, { target: { value: words[Number(field.name.slice(5)) - 1] } });
    fireEvent.change(asked[1]!, { target: { value: 'nope' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save recovery phrase' }));
    expect(await screen.findByText(/^Word \d+ does not match/)).toBeTruthy();
    expect(api.putRecovery).not.toHaveBeenCalled();
    fireEvent.change(asked[1]!, { target: { value: ` ${words[Number(asked[1]!.name.slice(5)) - 1]!.toUpperCase()} ` } });
    fireEvent.click(screen.getByRole('button', { name: 'Save recovery phrase' }));
    expect(await screen.findByText('Registration successful! You are signed in.')).toBeTruthy();
    // The phrase itself is never sent; the current login password comes with the copy.
    expect(api.putRecovery).toHaveBeenCalledWith({
      currentPassword: 'h',
      recoveryAuth: 'ra',
      recoverySealed: 'rs',
      recoveryNonce: 'rn',
    });
    // To /files (whose guard, with no server here, sends the test on to the login page asking for /files).
    expect(router.state.location.href).toContain('files');
    expect(text()).not.toContain('Redirecting to login');
  });

  it('registers through the worker and goes to /login when signing in then fails', async () => {
    const { router } = await openRegister();
    call.mockResolvedValue({
      password: 'h',
      passwordSalt: 's',
      salt: 's',
      iv: 'i',
      encryptedPrivateKey: 'e',
      publicKey: 'p',
      signingPublicKey: 'q',
      kdf: {},
    });
    api.postRegister.mockResolvedValue({ ok: true, status: 201, data: { id: 'u1' } });
    type('username', 'alice');
    type('password', 'long enough');
    type('confirmPassword', 'long enough');
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('Registration successful! Redirecting to login...')).toBeTruthy();
    expect(call).toHaveBeenCalledWith('register', 'long enough');
    expect(api.postRegister).toHaveBeenCalledWith(expect.objectContaining({ username: 'alice', email: null, password: 'h' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });

  it('shows the in-use message on the field after a 409, and the generic toast otherwise', async () => {
    await openRegister();
    call.mockResolvedValue({ password: 'h' });
    api.postRegister.mockResolvedValue({ ok: false, status: 409, message: 'taken' });
    type('username', 'alice');
    type('password', 'long enough');
    type('confirmPassword', 'long enough');
    // Free at first, taken once the 409 makes the page ask again.
    api.checkAvailable.mockResolvedValueOnce(free).mockResolvedValue(taken);
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('Username is already in use!')).toBeTruthy();

    api.postRegister.mockResolvedValue({ ok: false, status: 500, message: 'boom' });
    api.checkAvailable.mockResolvedValue(free);
    type('username', 'alice2');
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('Error during registration.')).toBeTruthy();
  });
});
