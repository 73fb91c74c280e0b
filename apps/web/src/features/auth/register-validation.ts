/** docs/product.md "Input rules" registration rules and their exact texts. */
import { EMAIL_INVALID_TEXT, EMAIL_TAKEN_TEXT, USERNAME_LENGTH_TEXT, USERNAME_TAKEN_TEXT } from '@sealbox/rules';
import { PASSWORD_MIN, USERNAME_MAX, USERNAME_MIN } from './login-flow.ts';

export const REGISTER_MESSAGES = {
  usernameLength: USERNAME_LENGTH_TEXT,
  usernameSpaces: 'Username cannot start or end with a space.',
  usernameControl: 'Username cannot contain control characters.',
  usernameTaken: USERNAME_TAKEN_TEXT,
  usernameChecking: 'Checking if username already exists',
  emailInvalid: EMAIL_INVALID_TEXT,
  emailTaken: EMAIL_TAKEN_TEXT,
  emailChecking: 'Checking if email is already in use',
  passwordRequired: 'Password is required',
  passwordLength: 'Password must be at least 8 characters long.',
  passwordMismatch: 'Passwords do not match',
  failed: 'Error during registration.',
  success: 'Registration successful! Redirecting to login...',
  /** After registering the user is signed in at once (docs/web-files.md "First minutes"). */
  signedIn: 'Registration successful! You are signed in.',
} as const;

/** docs/product.md "Limits": availability is checked 700 ms after the last keystroke. */
export const AVAILABILITY_DEBOUNCE_MS = 700;

export function validateUsername(username: string): string | undefined {
  if (username.length < USERNAME_MIN || username.length > USERNAME_MAX) return REGISTER_MESSAGES.usernameLength;
  if (username !== username.trim()) return REGISTER_MESSAGES.usernameSpaces;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f-\u009f]/.test(username)) return REGISTER_MESSAGES.usernameControl;
  return undefined;
}

const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Optional: empty is fine. */
export function validateEmail(email: string): string | undefined {
  if (email === '') return undefined;
  return EMAIL_SHAPE.test(email) && email.length <= 254 ? undefined : REGISTER_MESSAGES.emailInvalid;
}

export function validatePassword(password: string): string | undefined {
  if (password === '') return REGISTER_MESSAGES.passwordRequired;
  if (password.length < PASSWORD_MIN) return REGISTER_MESSAGES.passwordLength;
  return undefined;
}

export function validateConfirmation(password: string, confirmation: string): string | undefined {
  return password === confirmation ? undefined : REGISTER_MESSAGES.passwordMismatch;
}

/** Profile's Change password (docs/web-accounts.md "Change password"). */
export const PASSWORD_CHANGE_MESSAGES = {
  currentRequired: 'Enter your current password',
  same: 'The new password is the same as the current one',
  wrong: 'Wrong password.',
  failed: 'The password could not be changed. Please try again.',
  changed: (ended: number) =>
    ended === 0
      ? 'Password changed.'
      : `Password changed. ${ended === 1 ? '1 other session was' : `${ended} other sessions were`} signed out.`,
} as const;

/** The first problem of a Change password form, or undefined: registration's rules for the new one. */
export function changePasswordProblem(current: string, next: string, confirmation: string): string | undefined {
  if (current === '') return PASSWORD_CHANGE_MESSAGES.currentRequired;
  const problem = validatePassword(next) ?? validateConfirmation(next, confirmation);
  if (problem) return problem;
  return next === current ? PASSWORD_CHANGE_MESSAGES.same : undefined;
}

export interface RegistrationValues {
  username: string;
  email: string;
  password: string;
  confirmPassword: string;
}

/** Each field's own rule, by field (availability is the server's to say, apart from these). */
export function validateRegistration(values: RegistrationValues): Record<keyof RegistrationValues, string | undefined> {
  return {
    username: validateUsername(values.username),
    email: validateEmail(values.email),
    password: validatePassword(values.password),
    confirmPassword: validateConfirmation(values.password, values.confirmPassword),
  };
}
