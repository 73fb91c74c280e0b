/**
 * Accounts and sessions (docs/product.md "Input rules" and "Messages"): sign-in and registration
 * flows, who is signed in, the guard of protected pages, and the accounts endpoints the profile
 * screens use.
 */
export {
  SORT_BY_VALUES,
  avatarUrl,
  deleteAccount,
  endSession,
  getRecoveryStatus,
  getTotpStatus,
  listSessions,
  postLogout,
  postRegister,
  postSealedAccount,
  putAccountPassword,
  putPreferences,
  totpConfirm,
  totpDisable,
  totpRecoveryCodes,
  totpSetup,
  uploadAvatar,
  type Answer,
  type Preferences,
  type Profile,
  type SessionInfo,
  type SortBy,
  type SortOrder,
} from './account-api.ts';
export { createAuth, endingSessionOnPurpose, onSignOut } from './auth-state.ts';
export { CRYPTO_START_MESSAGES, NeedsSecureContext } from './crypto-start.tsx';
export {
  LOGIN_MESSAGES,
  deriveLoginHash,
  signIn,
  validateLogin,
  validateTotpCode,
  type LoginFailure,
  type Stage,
} from './login-flow.ts';
export { LOGIN_MARKS, LoginScreen } from './LoginScreen.tsx';
export { protectedPage } from './protected-page.tsx';
export { PROFILE_QUERY_KEY, profileQuery } from './queries.ts';
export { DEFAULT_AFTER_LOGIN, safeRedirectPath } from './redirect.ts';
export {
  PASSWORD_CHANGE_MESSAGES,
  REGISTER_MESSAGES,
  changePasswordProblem,
  validateConfirmation,
  validateEmail,
  validatePassword,
  validateUsername,
} from './register-validation.ts';
export { NewPasswordFields } from './NewPasswordFields.tsx';
export { KeepActions } from './KeepActions.tsx';
export { RecoverScreen } from './RecoverScreen.tsx';
export { RecoveryPhraseSteps, type RecoverySetupData } from './RecoveryPhraseSteps.tsx';
export { RegisterScreen } from './RegisterScreen.tsx';
export {
  auth,
  clearSession,
  sessionAtom,
  sessionStartsAtom,
  sessionsStartedHere,
  setSession,
  signedInAtom,
  type AuthContext,
} from './session.ts';
export { CODE_KIND_TEXT, CodeKindToggle, TotpCodeInput } from './TotpCodeInput.tsx';
export { reportSessionEnded, useAuthSync } from './useAuthSync.ts';
export { useAvailability, type Availability } from './useAvailability.ts';
export { useLogout } from './useLogout.ts';
export { avatarVersionAtom, useAvatarUrl, useProfile } from './useProfile.ts';
