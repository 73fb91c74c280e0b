/**
 * Signing in, step by step (docs/product.md "States" "Login"): lookup → argon2id login hash
 * (worker) → POST /api/login → (307: TOTP step) → unlock the sealed keys (worker) → signed
 * in. Every outcome maps to docs/product.md "Input rules" and "Messages" exact texts here, so the
 * page only renders.
 */
import {
  INVALID_CREDENTIALS_TEXT,
  INVALID_RECOVERY_CODE_TEXT,
  RECOVERY_CODE_COUNT,
  RECOVERY_CODES_FEW,
  TOTP_PROMPT_TEXT,
  USER_NOT_FOUND_TEXT,
  USERNAME_LENGTH_TEXT,
  isRecoveryCodeShape,
  normaliseRecoveryCode,
} from '@sealbox/rules';
import {
  cryptoWorker,
  describeCryptoError,
  isWorkerFailure,
  type LoginLookup,
  type SealedAccountInput,
} from '../../crypto/client.ts';
import { lookupLogin, postLogin, postLogout, putAccountKdf, type LoginSuccess, type Profile } from './account-api.ts';
import { endingSessionOnPurpose } from './auth-state.ts';

type KdfParams = LoginLookup['kdf'];

export const LOGIN_MESSAGES = {
  required: 'Username and password are required.',
  usernameLength: USERNAME_LENGTH_TEXT,
  passwordLength: 'Password must be at least 8 characters long.',
  invalid: INVALID_CREDENTIALS_TEXT,
  invalidCode: 'Invalid TOTP code. Please try again.',
  codeShape: 'Enter the 6-digit code from your authenticator app.',
  missing: 'Missing login information. Please try again.',
  noUser: USER_NOT_FOUND_TEXT,
  serverError: 'Server error',
  failed: 'Login failed. Please try again.',
  success: 'Login successful! Redirecting...',
  totpPrompt: TOTP_PROMPT_TEXT,
  recoveryPrompt: 'Enter one of your recovery codes',
  recoveryHint: 'Lost your authenticator app? Each recovery code you saved when you turned TOTP on signs you in once.',
  recoveryShape: 'A recovery code has 10 letters and digits, like 7hk2m-q9xzp.',
  invalidRecoveryCode: INVALID_RECOVERY_CODE_TEXT,
  /** After a sign-in with a recovery code (docs/web-accounts.md "TOTP recovery codes"). */
  recoveryCodeUsed: (left: number) =>
    left === 0
      ? 'Signed in with your last recovery code. Make new ones on your Profile.'
      : left <= RECOVERY_CODES_FEW
        ? `Signed in with a recovery code. Only ${left} of ${RECOVERY_CODE_COUNT} left: make new ones on your Profile.`
        : `Signed in with a recovery code. ${left} of ${RECOVERY_CODE_COUNT} recovery codes left.`,
  /**
   * docs/product.md "Messages": the password hash needs WebAssembly (argon2id), which this browser
   * lacks.
   */
  noWasm:
    'You created your password on a browser that supports wasm but are attempting to login on a browser that does not. This is not supported!',
} as const;

export const loginFailed = (reason: string | undefined): string => (reason ? `Login failed. ${reason}` : LOGIN_MESSAGES.failed);

export const USERNAME_MIN = 3;
export const USERNAME_MAX = 20;
export const PASSWORD_MIN = 8;

/** Client checks before anything is sent (docs/product.md "Input rules" "Login"). */
export function validateLogin(username: string, password: string): string | undefined {
  if (username === '' || password === '') return LOGIN_MESSAGES.required;
  if (username.length < USERNAME_MIN || username.length > USERNAME_MAX) return LOGIN_MESSAGES.usernameLength;
  if (password.length < PASSWORD_MIN) return LOGIN_MESSAGES.passwordLength;
  return undefined;
}

/** The second step's code: the app's 6 digits, or with `recovery` the shape of a recovery code. */
export function validateTotpCode(code: string, recovery = false): string | undefined {
  if (recovery) return isRecoveryCodeShape(code) ? undefined : LOGIN_MESSAGES.recoveryShape;
  return /^\d{6}$/.test(code) ? undefined : LOGIN_MESSAGES.codeShape;
}

/** The code as sent: a recovery code normalised (docs/protocol.md "TOTP recovery codes"), the app's as it is. */
export function codeToSend(code: string, recovery: boolean): string {
  return recovery ? normaliseRecoveryCode(code) : code;
}

/**
 * Where a message goes: beside the form (validation, docs/product.md "Input rules") or in a toast
 * (docs/product.md "Messages").
 */
export type LoginFailure =
  | { message: string; display: 'inline' | 'toast' }
  | { message: null; display: 'none' }
  /** The crypto worker did not start: the page offers a reload (features/auth/crypto-start.tsx). */
  | { message: null; display: 'reload' };

export type Stage = 'checking' | 'deriving' | 'signing-in' | 'unlocking';

type Failed = { kind: 'failed'; failure: LoginFailure };

export type LoginOutcome =
  | {
      kind: 'signed-in';
      profile: Profile;
      fingerprint: string;
      /** Only after a recovery code: how many the account has left. */
      recoveryCodesLeft?: number;
    }
  | { kind: 'totp'; loginHash: string }
  | Failed;

const inline = (message: string): Failed => ({ kind: 'failed', failure: { message, display: 'inline' } });
const toasted = (message: string): Failed => ({ kind: 'failed', failure: { message, display: 'toast' } });
/** 429: the API layer already showed docs/product.md "Messages" toast. */
const silent: Failed = { kind: 'failed', failure: { message: null, display: 'none' } };
const reload: Failed = { kind: 'failed', failure: { message: null, display: 'reload' } };

/** A crypto call's rejection as a failure: a worker that did not start asks for a reload. */
const cryptoFailed = (error: unknown): Failed =>
  isWorkerFailure(error) ? reload : toasted(loginFailed(describeCryptoError(error)));

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const nonEmpty = (value: unknown): value is string => typeof value === 'string' && value !== '';

function lookupOf(data: unknown): { passwordSalt: string; kdf: KdfParams } | undefined {
  const first: unknown = Array.isArray(data) ? data[0] : undefined;
  if (!isRecord(first) || !nonEmpty(first.passwordSalt) || !isRecord(first.kdf)) return undefined;
  return { passwordSalt: first.passwordSalt, kdf: first.kdf as unknown as KdfParams };
}

function sealedOf(data: unknown): (SealedAccountInput & { profile: Profile }) | undefined {
  if (!isRecord(data)) return undefined;
  const { user, salt, iv, encryptedPrivateKey, publicKey, signingPublicKey, kdf } = data as Partial<LoginSuccess> &
    Record<string, unknown>;
  if (!isRecord(user) || !nonEmpty(user.id) || !nonEmpty(user.username)) return undefined;
  if (![salt, iv, encryptedPrivateKey, publicKey, signingPublicKey].every(nonEmpty) || !isRecord(kdf)) return undefined;
  return {
    userId: user.id,
    salt: salt as string,
    iv: iv as string,
    encryptedPrivateKey: encryptedPrivateKey as string,
    publicKey: publicKey as string,
    signingPublicKey: signingPublicKey as string,
    kdf: kdf as unknown as KdfParams,
    profile: user as unknown as Profile,
  };
}

/**
 * No downgrade on a device that has seen better (docs/protocol.md "Account"): once an account
 * signed in here on version 2, a lookup that offers a lower version is refused before the
 * password is touched, so a hostile server cannot collect a cheap version-1 login password from
 * this device. Kept per account (SHA-256 of the NFC lower-case name, not the name) across
 * logouts; it holds nothing secret.
 */
const KDF_FLOOR_PREFIX = 'sealbox:kdf-floor:';
export const KDF_DOWNGRADE_MESSAGE = 'The server asked for weaker password protection than this app accepts.';

async function floorKey(username: string): Promise<string> {
  const name = new TextEncoder().encode(username.normalize('NFC').toLowerCase());
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', name));
  return KDF_FLOOR_PREFIX + Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

async function kdfFloor(username: string): Promise<number> {
  try {
    return Number(localStorage.getItem(await floorKey(username)) ?? 0) || 0;
  } catch {
    return 0;
  }
}

async function raiseKdfFloor(username: string, version: number): Promise<void> {
  try {
    if ((await kdfFloor(username)) < version) localStorage.setItem(await floorKey(username), String(version));
  } catch {
    // Without storage there is no memory of earlier sign-ins: the parameter checks still hold.
  }
}

/** The passwordSalt of the last lookup: unlocking a version-2 account needs it (also after the TOTP step). */
let lastLookup: { username: string; passwordSalt: string } | undefined;

/**
 * A version-1 account moves to version 2 right after it was unlocked (docs/protocol.md
 * "Account"). If the call fails, the account stays on version 1, still works, and the next
 * sign-in tries again: nothing is lost either way.
 */
async function sendUpgrade(
  loginHash: string,
  upgrade: Omit<Parameters<typeof putAccountKdf>[0], 'currentPassword'>,
): Promise<boolean> {
  const answer = await putAccountKdf({ currentPassword: loginHash, ...upgrade }).catch(() => undefined);
  if (!answer?.ok) console.warn('Sealbox: the account keeps its version-1 password keys until the next sign-in');
  return answer?.ok === true;
}

export type LoginHashOutcome =
  | { kind: 'hash'; loginHash: string }
  /** `status`: the lookup's, when it was the lookup that failed. */
  | (Failed & { status?: number });

function lookupFailed(lookup: { status: number; message: string | undefined }): Failed {
  if (lookup.status === 404) return toasted(LOGIN_MESSAGES.noUser);
  if (lookup.status === 429) return silent;
  if (lookup.status >= 500) return toasted(LOGIN_MESSAGES.serverError);
  return toasted(loginFailed(lookup.message));
}

/**
 * The login hash of `password` (docs/protocol.md "Account"): the account's passwordSalt and KDF
 * from the login lookup, argon2id in the crypto worker. Sign-in sends it, and so do the
 * profile's TOTP changes, which the server guards with the password as well.
 */
export async function deriveLoginHash(
  username: string,
  password: string,
  onStage?: (stage: Stage) => void,
): Promise<LoginHashOutcome> {
  onStage?.('checking');
  const lookup = await lookupLogin(username);
  if (!lookup.ok) return { ...lookupFailed(lookup), status: lookup.status };
  const params = lookupOf(lookup.data);
  if (!params) return inline(LOGIN_MESSAGES.missing);
  const version = (params.kdf as { version?: unknown }).version;
  // Anything malformed goes on to the worker, which refuses it with its own code.
  if (typeof version === 'number' && version < (await kdfFloor(username))) return toasted(loginFailed(KDF_DOWNGRADE_MESSAGE));
  if (typeof WebAssembly !== 'object') return toasted(LOGIN_MESSAGES.noWasm);
  lastLookup = { username, passwordSalt: params.passwordSalt };
  onStage?.('deriving');
  try {
    return { kind: 'hash', loginHash: await cryptoWorker.call('login', password, params) };
  } catch (error) {
    return cryptoFailed(error);
  }
}

export interface LoginInput {
  username: string;
  password: string;
  /** From the first step, so the TOTP step does not derive it again. */
  loginHash?: string;
  totpCode?: string;
  onStage?: (stage: Stage) => void;
}

const wrongCodeMessage = (code: string) =>
  !/^\d{6}$/.test(code) && isRecoveryCodeShape(code) ? LOGIN_MESSAGES.invalidRecoveryCode : LOGIN_MESSAGES.invalidCode;

/**
 * Runs the flow; never throws (every failure is a LoginOutcome). A sign-in ends the session this
 * browser held before (the server replaces it): its socket closing meanwhile, or a 401 of a call
 * still on its way, is not "your session has ended".
 */
export function signIn(input: LoginInput): Promise<LoginOutcome> {
  return endingSessionOnPurpose(() => signInNow(input));
}

async function signInNow(input: LoginInput): Promise<LoginOutcome> {
  const { username, password, totpCode, onStage } = input;
  const inTotpStep = totpCode !== undefined;
  try {
    let loginHash = input.loginHash;
    if (loginHash === undefined) {
      let derived = await deriveLoginHash(username, password, onStage);
      if (derived.kind === 'failed' && derived.status === 401) {
        // A sign-in left waiting for its TOTP code holds this browser's cookie, and the server
        // refuses everything else until it ends: end it and look up again.
        await postLogout().catch(() => undefined);
        derived = await deriveLoginHash(username, password, onStage);
      }
      if (derived.kind === 'failed') return { kind: 'failed', failure: derived.failure };
      loginHash = derived.loginHash;
    }

    onStage?.('signing-in');
    const answer = await postLogin({ username, password: loginHash, ...(inTotpStep ? { totpCode } : {}) });
    if (!answer.ok) {
      if (answer.status === 307 && !inTotpStep) return { kind: 'totp', loginHash };
      if (answer.status === 401) return inline(inTotpStep ? wrongCodeMessage(totpCode) : LOGIN_MESSAGES.invalid);
      if (answer.status === 429) return silent;
      return toasted(loginFailed(answer.message));
    }

    const sealed = sealedOf(answer.data);
    if (!sealed) {
      // Signed in on the server but nothing to unlock with: do not leave that session behind.
      await postLogout().catch(() => undefined);
      return inline(LOGIN_MESSAGES.missing);
    }
    onStage?.('unlocking');
    const { profile, ...account } = sealed;
    const passwordSalt = lastLookup?.username === username ? lastLookup.passwordSalt : undefined;
    try {
      const { fingerprint, upgrade } = await cryptoWorker.call('unlock', password, {
        ...account,
        ...(passwordSalt === undefined ? {} : { passwordSalt }),
      });
      if (!upgrade) await raiseKdfFloor(username, account.kdf.version);
      else if (await sendUpgrade(loginHash, upgrade)) await raiseKdfFloor(username, upgrade.kdf.version);
      const left = (answer.data as { recoveryCodesLeft?: unknown }).recoveryCodesLeft;
      return { kind: 'signed-in', profile, fingerprint, ...(typeof left === 'number' ? { recoveryCodesLeft: left } : {}) };
    } catch (error) {
      await postLogout().catch(() => undefined);
      return cryptoFailed(error);
    }
  } catch (error) {
    return toasted(loginFailed(error instanceof Error && error.message ? error.message : undefined));
  }
}
