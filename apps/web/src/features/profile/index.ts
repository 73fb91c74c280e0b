/**
 * The /profile screen's sections (docs/protocol.md "HTTP endpoints"): avatar, storage, fingerprint,
 * TOTP, sessions, preferences, and the unfinished uploads in the user's tree.
 */
export { AvatarSection } from './AvatarSection.tsx';
export { BlockedAccountsSection, NO_BLOCKS_TEXT } from './BlockedAccountsSection.tsx';
export { FingerprintSection } from './FingerprintSection.tsx';
export { formatBytes, formatDate } from './format.ts';
export { PreferencesSection } from './PreferencesSection.tsx';
export {
  SESSIONS_QUERY_KEY,
  sessionsQueryOptions,
  TOTP_STATUS_QUERY_KEY,
  UNFINISHED_UPLOADS_QUERY_KEY,
  unfinishedUploadsQueryOptions,
} from './queries.ts';
export { SessionsSection } from './SessionsSection.tsx';
export { StorageSection } from './StorageSection.tsx';
export { UnfinishedUploadsSection } from './UnfinishedUploadsSection.tsx';
export { PasswordSection } from './PasswordSection.tsx';
export { RecoverySection } from './RecoverySection.tsx';
export { DangerZoneSection } from './DangerZoneSection.tsx';
export { TotpSection } from './TotpSection.tsx';
