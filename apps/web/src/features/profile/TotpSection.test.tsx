import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { Profile } from '../auth/account-api.ts';
import { TOTP_MESSAGES, TotpSection } from './TotpSection.tsx';

const { overriding } = await vi.hoisted(() => import('../../test/mock-module.ts'));
const api = vi.hoisted(() => ({
  lookupLogin: vi.fn(),
  totpSetup: vi.fn(),
  totpConfirm: vi.fn(),
  totpDisable: vi.fn(),
  totpRecoveryCodes: vi.fn(),
  getTotpStatus: vi.fn(),
}));
vi.mock('../auth/account-api.ts', overriding(api));
const call = vi.hoisted(() => vi.fn());
vi.mock('../../crypto/client.ts', overriding({ cryptoWorker: { call } }));

const KDF = {
  version: 1,
  argon2id: { iterations: 256, memoryKiB: 512, parallelism: 1, hashLength: 32 },
  pbkdf2: { iterations: 120000 },
};
const PROFILE = { id: 'u1', username: 'alice', totpEnabled: false } as Profile;

beforeEach(() => {
  api.lookupLogin.mockResolvedValue({
    ok: true,
    status: 200,
    data: [{ id: 'u1', username: 'alice', passwordSalt: 'salt', kdf: KDF }],
  });
  call.mockResolvedValue('login-hash');
  api.getTotpStatus.mockResolvedValue({ ok: true, status: 200, data: { recoveryCodesLeft: 8 } });
});

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

function show(profile: Profile) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <TotpSection profile={profile} />
    </QueryClientProvider>,
  );
}

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

/** Sets up TOTP with the right password; resolves to the secret as shown, once it is. */
function setUpWithPassword() {
  api.totpSetup.mockResolvedValueOnce({
    ok: true,
    status: 200,
    data: { secret: 'ABCDEFGH', uri: 'otpauth://totp/x?secret=ABCDEFGH' },
  });
  type('Password', 'correct horse');
  fireEvent.click(screen.getByRole('button', { name: 'Set up TOTP' }));
  return screen.findByText('ABCD EFGH');
}

describe('TOTP on /profile asks for the password', () => {
  it('set up sends the login hash derived as at sign-in; no password, no request', async () => {
    show(PROFILE);
    fireEvent.click(screen.getByRole('button', { name: 'Set up TOTP' }));
    expect(await screen.findByText(TOTP_MESSAGES.passwordMissing)).toBeTruthy();
    expect(api.totpSetup).not.toHaveBeenCalled();

    expect(await setUpWithPassword()).toBeTruthy();
    expect(api.lookupLogin).toHaveBeenCalledWith('alice');
    expect(call).toHaveBeenCalledWith('login', 'correct horse', { passwordSalt: 'salt', kdf: KDF });
    expect(api.totpSetup).toHaveBeenCalledWith('login-hash');
  });

  it('a wrong password (403) is said beside the form', async () => {
    show(PROFILE);
    api.totpSetup.mockResolvedValueOnce({ ok: false, status: 403, message: 'Wrong password.' });
    type('Password', 'not my password');
    fireEvent.click(screen.getByRole('button', { name: 'Set up TOTP' }));
    expect((await screen.findByRole('alert')).textContent).toBe(TOTP_MESSAGES.wrongPassword);
    expect(screen.getByRole('button', { name: 'Set up TOTP' })).toBeTruthy();
  });

  it('disable needs the code and the password', async () => {
    show({ ...PROFILE, totpEnabled: true });
    type('Password', 'correct horse');
    fireEvent.click(screen.getByRole('button', { name: 'Disable TOTP' }));
    expect(await screen.findByText(TOTP_MESSAGES.codeShape)).toBeTruthy();
    type('Code to turn it off', '123456');
    api.totpDisable.mockResolvedValueOnce({ ok: false, status: 403, message: 'Wrong password.' });
    fireEvent.click(screen.getByRole('button', { name: 'Disable TOTP' }));
    expect(await screen.findByText(TOTP_MESSAGES.wrongPassword)).toBeTruthy();
    expect(api.totpDisable).toHaveBeenCalledWith('123456', 'login-hash');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Disable TOTP' }).hasAttribute('disabled')).toBe(false));
  });
});

describe('TOTP setup helps with the secret and the code', () => {
  async function openSetup() {
    show(PROFILE);
    await setUpWithPassword();
  }

  it('copies the secret without its grouping spaces and says Copied', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await openSetup();
    fireEvent.click(screen.getByRole('button', { name: 'Copy secret' }));
    expect(await screen.findByRole('button', { name: 'Copied' })).toBeTruthy();
    expect(writeText).toHaveBeenCalledWith('ABCDEFGH');
  });

  it('a wrong code is cleared and its field focused, with the message', async () => {
    await openSetup();
    api.totpConfirm.mockResolvedValueOnce({ ok: false, status: 400, message: 'Invalid code.' });
    type('Code from the app', '123456');
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(TOTP_MESSAGES.wrongCode)).toBeTruthy();
    const code = screen.getByLabelText('Code from the app') as HTMLInputElement;
    expect(code.value).toBe('');
    await waitFor(() => expect(document.activeElement).toBe(code));
  });
});

const CODES = Array.from({ length: 10 }, (_, i) => `abcd${i + 2}-fghj${i + 2}`);

describe('TOTP recovery codes', () => {
  it('confirming shows the ten codes once; saved, the card says how many are left', async () => {
    show(PROFILE);
    await setUpWithPassword();
    api.totpConfirm.mockResolvedValueOnce({ ok: true, status: 200, data: { enabled: true, recoveryCodes: CODES } });
    type('Code from the app', '123456');
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    const list = await screen.findByRole('list', { name: 'Your recovery codes' });
    expect(Array.from(list.querySelectorAll('li'), (li) => li.textContent)).toEqual(CODES);
    for (const name of ['Copy', 'Download', 'Print']) expect(screen.getByRole('button', { name })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'I have saved them' }));
    expect(screen.queryByRole('list', { name: 'Your recovery codes' })).toBeNull();
  });

  it('while on: the count, a warning when few are left, and new ones for the password', async () => {
    api.getTotpStatus.mockResolvedValueOnce({ ok: true, status: 200, data: { recoveryCodesLeft: 2 } });
    show({ ...PROFILE, totpEnabled: true });
    const warning = await screen.findByText(TOTP_MESSAGES.codesLeft(2));
    expect(warning.className).toContain('auth-card__warning');
    expect(TOTP_MESSAGES.codesLeft(8)).toBe('8 of 10 recovery codes left.');

    fireEvent.click(screen.getByRole('button', { name: 'Make new recovery codes' }));
    // Only the password: the form to turn TOTP off is out of the way meanwhile.
    expect(screen.queryByRole('button', { name: 'Disable TOTP' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Make new recovery codes' }));
    expect(await screen.findByText(TOTP_MESSAGES.passwordMissing)).toBeTruthy();
    expect(api.totpRecoveryCodes).not.toHaveBeenCalled();
    api.totpRecoveryCodes.mockResolvedValueOnce({ ok: false, status: 403, message: 'Wrong password.' });
    type('Password', 'not mine');
    fireEvent.click(screen.getByRole('button', { name: 'Make new recovery codes' }));
    expect(await screen.findByText(TOTP_MESSAGES.wrongPassword)).toBeTruthy();

    api.totpRecoveryCodes.mockResolvedValueOnce({ ok: true, status: 200, data: { recoveryCodes: CODES } });
    type('Password', 'correct horse');
    fireEvent.click(screen.getByRole('button', { name: 'Make new recovery codes' }));
    await screen.findByRole('list', { name: 'Your recovery codes' });
    expect(api.totpRecoveryCodes).toHaveBeenLastCalledWith('login-hash');
    fireEvent.click(screen.getByRole('button', { name: 'I have saved them' }));
    expect(await screen.findByText('10 of 10 recovery codes left.')).toBeTruthy();
  });

  it('turns TOTP off with a recovery code: its shape checked first, sent normalised, kept when refused', async () => {
    show({ ...PROFILE, totpEnabled: true });
    fireEvent.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    const field = screen.getByLabelText('Recovery code to turn it off') as HTMLInputElement;
    type('Recovery code to turn it off', 'abc');
    type('Password', 'correct horse');
    fireEvent.click(screen.getByRole('button', { name: 'Disable TOTP' }));
    expect(await screen.findByText(TOTP_MESSAGES.recoveryShape)).toBeTruthy();
    expect(api.totpDisable).not.toHaveBeenCalled();

    api.totpDisable.mockResolvedValueOnce({ ok: false, status: 400, message: 'no' });
    type('Recovery code to turn it off', 'ABCDE FGHJK');
    fireEvent.click(screen.getByRole('button', { name: 'Disable TOTP' }));
    expect(await screen.findByText(TOTP_MESSAGES.wrongRecoveryCode)).toBeTruthy();
    expect(api.totpDisable).toHaveBeenLastCalledWith('abcdefghjk', 'login-hash');
    expect(field.value).toBe('ABCDE FGHJK');

    // Back to the app's code: the field takes digits again.
    fireEvent.click(screen.getByRole('button', { name: 'Use the authenticator app' }));
    expect(screen.getByLabelText('Code to turn it off')).toBeTruthy();
  });
});
