import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { Profile } from '../auth/account-api.ts';
import { DELETE_ACCOUNT_MESSAGES, DangerZoneSection } from './DangerZoneSection.tsx';

const { overriding } = await vi.hoisted(() => import('../../test/mock-module.ts'));
const api = vi.hoisted(() => ({ lookupLogin: vi.fn(), deleteAccount: vi.fn() }));
vi.mock('../auth/account-api.ts', overriding(api));
const call = vi.hoisted(() => vi.fn());
vi.mock('../../crypto/client.ts', overriding({ cryptoWorker: { call } }));
const logout = vi.hoisted(() => vi.fn());
vi.mock('../auth/useLogout.ts', () => ({ useLogout: () => ({ logout, loggingOut: false }) }));
const reportSessionEnded = vi.hoisted(() => vi.fn());
vi.mock('../auth/useAuthSync.ts', overriding({ reportSessionEnded }));

const KDF = {
  version: 1,
  argon2id: { iterations: 256, memoryKiB: 512, parallelism: 1, hashLength: 32 },
  pbkdf2: { iterations: 120000 },
};

beforeEach(() => {
  api.lookupLogin.mockResolvedValue({
    ok: true,
    status: 200,
    data: [{ id: 'u1', username: 'alice', passwordSalt: 's', kdf: KDF }],
  });
  call.mockResolvedValue('login-hash');
});

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

function open(profile: Partial<Profile> = {}) {
  render(<DangerZoneSection profile={{ id: 'u1', username: 'alice', totpEnabled: false, ...profile } as Profile} />);
  fireEvent.click(screen.getByRole('button', { name: 'Delete account…' }));
}

const type = (label: string | RegExp, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const confirm = () => fireEvent.click(screen.getByRole('button', { name: 'Delete my account forever' }));

describe('DangerZoneSection', () => {
  it('sends nothing until the password is there and the name is typed exactly', async () => {
    open();
    confirm();
    expect((await screen.findByRole('alert')).textContent).toBe(DELETE_ACCOUNT_MESSAGES.passwordMissing);
    type('Password', 'secret');
    type(/^Type your username/, 'Alice');
    confirm();
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(DELETE_ACCOUNT_MESSAGES.nameMismatch));
    expect(api.deleteAccount).not.toHaveBeenCalled();
  });

  it('with TOTP on, takes a recovery code instead of the app code, normalised', async () => {
    api.deleteAccount.mockResolvedValue({ ok: true, status: 204, data: null });
    open({ totpEnabled: true });
    type('Password', 'secret');
    type(/^Type your username/, 'alice');
    fireEvent.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    type('Recovery code', 'nope');
    confirm();
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(DELETE_ACCOUNT_MESSAGES.recoveryShape));
    type('Recovery code', 'HFCGG-FNHN5');
    confirm();
    await waitFor(() => expect(api.deleteAccount).toHaveBeenCalledOnce());
    expect(api.deleteAccount).toHaveBeenCalledWith({ password: 'login-hash', confirm: 'alice', totpCode: 'hfcggfnhn5' });
    await waitFor(() => expect(logout).toHaveBeenCalledOnce());
  });

  it('a wrong password is said in place; a 401 is reported as a session ended, once the call is over', async () => {
    api.deleteAccount.mockResolvedValueOnce({ ok: false, status: 403, message: 'Wrong password.' });
    open();
    type('Password', 'secret');
    type(/^Type your username/, 'alice');
    confirm();
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(DELETE_ACCOUNT_MESSAGES.wrongPassword));
    api.deleteAccount.mockResolvedValueOnce({ ok: false, status: 401, message: 'Unauthorized' });
    confirm();
    await waitFor(() => expect(reportSessionEnded).toHaveBeenCalledOnce());
    expect(logout).not.toHaveBeenCalled();
  });
});
