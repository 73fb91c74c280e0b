import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isLoggingOut } from './auth-state.ts';
import { KDF_DOWNGRADE_MESSAGE, LOGIN_MESSAGES, signIn } from './login-flow.ts';

const { overriding } = await vi.hoisted(() => import('../../test/mock-module.ts'));
const api = vi.hoisted(() => ({ lookupLogin: vi.fn(), postLogin: vi.fn(), postLogout: vi.fn(), putAccountKdf: vi.fn() }));
vi.mock('./account-api.ts', overriding(api));
const call = vi.hoisted(() => vi.fn());
vi.mock('../../crypto/client.ts', overriding({ cryptoWorker: { call } }));

const V1 = {
  version: 1,
  argon2id: { iterations: 256, memoryKiB: 512, parallelism: 1, hashLength: 32 },
  pbkdf2: { iterations: 120000 },
};
const V2 = { version: 2, argon2id: { iterations: 3, memoryKiB: 65536, parallelism: 1, hashLength: 32 } };
const USER = { id: 'u1', username: 'carol', email: null, avatarExtension: null, totpEnabled: false };
const UPGRADE = { password: 'new-hash', passwordSalt: 'new-salt', salt: 's2', iv: 'i2', encryptedPrivateKey: 'e2', kdf: V2 };

let name = 0;
let username = '';

function serverSays(kdf: object) {
  api.lookupLogin.mockResolvedValue({ ok: true, status: 200, data: [{ id: 'u1', username, passwordSalt: 'salt', kdf }] });
  api.postLogin.mockResolvedValue({
    ok: true,
    status: 200,
    data: {
      user: { ...USER, username },
      salt: 's',
      iv: 'i',
      encryptedPrivateKey: 'e',
      publicKey: 'p',
      signingPublicKey: 'q',
      kdf,
    },
  });
}

beforeEach(() => {
  name += 1;
  username = `carol${name}`;
  api.postLogout.mockResolvedValue({ ok: true, status: 204, data: null });
  api.putAccountKdf.mockResolvedValue({ ok: true, status: 200, data: { kdf: V2 } });
  call.mockImplementation(async (method: string, _password: string, input: { kdf?: { version: number } }) => {
    if (method === 'login') return 'login-hash';
    if (method === 'unlock') return { fingerprint: 'abcd', upgrade: input.kdf?.version === 1 ? UPGRADE : null };
    return undefined;
  });
});

afterEach(() => {
  vi.clearAllMocks();
  localStorage.clear();
});

describe('sign-in and password keys by version (docs/protocol.md "Account")', () => {
  it('a version-1 account is upgraded right after unlocking, with the login password it signed in with', async () => {
    serverSays(V1);
    const outcome = await signIn({ username, password: 'long enough' });
    expect(outcome.kind).toBe('signed-in');
    expect(call).toHaveBeenCalledWith('unlock', 'long enough', expect.objectContaining({ passwordSalt: 'salt', kdf: V1 }));
    expect(api.putAccountKdf).toHaveBeenCalledWith({ currentPassword: 'login-hash', ...UPGRADE });
  });

  it('a failed upgrade still signs in (the account stays on version 1 and tries again next time)', async () => {
    serverSays(V1);
    api.putAccountKdf.mockResolvedValue({ ok: false, status: 500, message: 'Server error' });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      expect((await signIn({ username, password: 'long enough' })).kind).toBe('signed-in');
    } finally {
      warn.mockRestore();
    }
    // No floor was raised: version 1 is still offered and accepted.
    expect((await signIn({ username, password: 'long enough' })).kind).toBe('signed-in');
    expect(api.putAccountKdf).toHaveBeenCalledTimes(2);
  });

  it('a version-2 account passes the lookup passwordSalt to unlock and sends no upgrade', async () => {
    serverSays(V2);
    expect((await signIn({ username, password: 'long enough' })).kind).toBe('signed-in');
    expect(call).toHaveBeenCalledWith('unlock', 'long enough', expect.objectContaining({ passwordSalt: 'salt', kdf: V2 }));
    expect(api.putAccountKdf).not.toHaveBeenCalled();
  });

  it('after version 2 on this device, a lookup offering version 1 is refused before deriving or sending anything', async () => {
    serverSays(V1);
    expect((await signIn({ username, password: 'long enough' })).kind).toBe('signed-in');
    call.mockClear();
    api.postLogin.mockClear();
    serverSays(V1);
    api.postLogin.mockClear();
    const outcome = await signIn({ username: username.toUpperCase(), password: 'long enough' });
    expect(outcome).toEqual({ kind: 'failed', failure: { message: `Login failed. ${KDF_DOWNGRADE_MESSAGE}`, display: 'toast' } });
    expect(call).not.toHaveBeenCalled();
    expect(api.postLogin).not.toHaveBeenCalled();
    // The memory holds no name: only a hash of it.
    expect(Object.keys(localStorage).join()).not.toContain(username);
  });

  it('a browser without WebAssembly is told so (docs/product.md "Messages") before anything is derived or sent', async () => {
    serverSays(V2);
    vi.stubGlobal('WebAssembly', undefined);
    try {
      const outcome = await signIn({ username, password: 'long enough' });
      expect(outcome).toEqual({ kind: 'failed', failure: { message: LOGIN_MESSAGES.noWasm, display: 'toast' } });
      expect(LOGIN_MESSAGES.noWasm).toBe(
        'You created your password on a browser that supports wasm but are attempting to login on a browser that does not. This is not supported!',
      );
      expect(call).not.toHaveBeenCalled();
      expect(api.postLogin).not.toHaveBeenCalled();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('a sign-in over the session this browser held', () => {
  it('ends that session on purpose: its socket closing, or a late 401, is no news while it runs', async () => {
    api.lookupLogin.mockResolvedValue({ ok: true, status: 200, data: [{ passwordSalt: 'c2FsdA', kdf: V2 }] });
    call.mockImplementation(async (method: string) => (method === 'deriveLoginPassword' ? 'hash' : undefined));
    let answer: (value: unknown) => void = () => undefined;
    api.postLogin.mockImplementation(() => new Promise((resolve) => (answer = resolve)));
    expect(isLoggingOut()).toBe(false);
    const outcome = signIn({ username: 'carol', password: 'pw' });
    await vi.waitFor(() => expect(api.postLogin).toHaveBeenCalled());
    expect(isLoggingOut()).toBe(true);
    answer({ ok: false, status: 401, message: 'nope' });
    expect((await outcome).kind).toBe('failed');
    expect(isLoggingOut()).toBe(false);
  });
});
