/** The /profile screen's sections (SPEC 7): avatar, fingerprint, TOTP, sessions, preferences. */
export { AvatarSection } from './AvatarSection.tsx';
export { BlockedAccountsSection, NO_BLOCKS_TEXT } from './BlockedAccountsSection.tsx';
export { FingerprintSection } from './FingerprintSection.tsx';
export { formatBytes, formatDate } from './format.ts';
export { PreferencesSection } from './PreferencesSection.tsx';
export { SESSIONS_QUERY_KEY, sessionsQueryOptions } from './queries.ts';
export { SessionsSection } from './SessionsSection.tsx';
export { TotpSection } from './TotpSection.tsx';
