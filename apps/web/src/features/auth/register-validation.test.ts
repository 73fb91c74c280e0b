import { describe, expect, it } from 'vitest';
import { PASSWORD_CHANGE_MESSAGES, REGISTER_MESSAGES, changePasswordProblem } from './register-validation.ts';

describe('Change password rules', () => {
  it('asks for the current password, then applies registration rules to the new one', () => {
    expect(changePasswordProblem('', 'a new password', 'a new password')).toBe(PASSWORD_CHANGE_MESSAGES.currentRequired);
    expect(changePasswordProblem('old password', '', '')).toBe(REGISTER_MESSAGES.passwordRequired);
    expect(changePasswordProblem('old password', 'short', 'short')).toBe(REGISTER_MESSAGES.passwordLength);
    expect(changePasswordProblem('old password', 'a new password', 'a new passwore')).toBe(REGISTER_MESSAGES.passwordMismatch);
    expect(changePasswordProblem('same password', 'same password', 'same password')).toBe(PASSWORD_CHANGE_MESSAGES.same);
    expect(changePasswordProblem('old password', 'a new password', 'a new password')).toBeUndefined();
  });

  it('says how many other sessions were signed out, in good English', () => {
    expect(PASSWORD_CHANGE_MESSAGES.changed(0)).toBe('Password changed.');
    expect(PASSWORD_CHANGE_MESSAGES.changed(1)).toBe('Password changed. 1 other session was signed out.');
    expect(PASSWORD_CHANGE_MESSAGES.changed(3)).toBe('Password changed. 3 other sessions were signed out.');
  });
});
