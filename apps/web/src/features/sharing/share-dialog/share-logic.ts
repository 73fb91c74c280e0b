/**
 * The rules of the Share dialog (docs/product.md "Roles" and "Limits"): who may be searched for,
 * how a link's expiry is sent, and how a link's URL is built (docs/protocol.md: the key only ever
 * in the fragment).
 */
import { EXPIRED_LINK_KEPT_MS, NOT_OWNER_SHARE_TEXT } from '@sealbox/rules';

/**
 * docs/product.md "Roles" and "Limits": the search starts at 3 typed characters and shows at most
 * 10 people.
 */
export const SEARCH_MIN_CHARS = 3;
export const SEARCH_LIMIT = 10;
/** How long typing must pause before the search is sent. */
export const SEARCH_DEBOUNCE_MS = 250;

/** docs/product.md "Messages" toasts of the dialog. */
export const SHARE_TEXT = {
  searchFailed: 'Error fetching usernames.',
  permissionFailed: 'Error updating share permissions.',
  passwordFailed: 'Error updating link password',
  expiryFailed: 'Error updating the link expiry',
  revokeFailed: (name: string) => `Failed to revoke permissions for ${name}`,
  listFailed: 'Failed to fetch active users/links',
  shareFailed: 'Error sharing file. Please try again.',
  noKey: 'No decrypted file key',
  copyFailed: 'Failed to copy link. Please try again.',
  noPublicKey: 'User public key not loaded',
  notOwner: NOT_OWNER_SHARE_TEXT,
} as const;

/** The text a search is sent for, or undefined while it is too short (docs/product.md "Roles"). */
export function searchTerm(typed: string): string | undefined {
  const term = typed.trim();
  return [...term].length >= SEARCH_MIN_CHARS ? term : undefined;
}

/**
 * Search answers without the signed-in user, at most SEARCH_LIMIT of them (docs/product.md
 * "Roles").
 */
export function searchResults<T extends { id: string }>(users: readonly T[], myUserId: string | undefined): T[] {
  return users.filter((user) => user.id !== myUserId).slice(0, SEARCH_LIMIT);
}

export type ExpiryUnit = 'never' | 'hours' | 'days' | 'weeks';
export const EXPIRY_UNITS: ReadonlyArray<{ value: ExpiryUnit; label: string }> = [
  { value: 'never', label: 'Never' },
  { value: 'hours', label: 'Hours' },
  { value: 'days', label: 'Days' },
  { value: 'weeks', label: 'Weeks' },
];
const UNIT_SECONDS: Record<Exclude<ExpiryUnit, 'never'>, number> = { hours: 3600, days: 86_400, weeks: 604_800 };
/** docs/product.md "Input rules": the amount is at least 1; the server takes at most 100 years. */
export const EXPIRY_MIN_AMOUNT = 1;
export const EXPIRY_MAX_SECONDS = 3_155_760_000;

/**
 * docs/product.md "Limits": `expires` of POST /api/share type link, in seconds; never = 0;
 * undefined when the amount is invalid.
 */
export function expirySeconds(amount: number, unit: ExpiryUnit): number | undefined {
  if (unit === 'never') return 0;
  if (!Number.isInteger(amount) || amount < EXPIRY_MIN_AMOUNT) return undefined;
  const seconds = amount * UNIT_SECONDS[unit];
  return seconds <= EXPIRY_MAX_SECONDS ? seconds : undefined;
}

/** `/share?linkId=ID#KEY` on this origin (docs/protocol.md). */
export function linkUrl(origin: string, linkId: string, fragment: string): string {
  return `${origin}/share?linkId=${encodeURIComponent(linkId)}#${fragment}`;
}

export const NEVER_EXPIRES_TEXT = 'Never expires';

/** A link's expiry as shown: 'Never expires' or its date and time. */
export function expiryText(expiresAt: number | null, locale?: string): string {
  if (expiresAt === null) return NEVER_EXPIRES_TEXT;
  const when = new Date(expiresAt).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
  return `Expires ${when}`;
}

/** An expired link's line: when it expired and when the server removes it (EXPIRED_LINK_KEPT_MS). */
export function expiredText(expiresAt: number, locale?: string): string {
  const day = (at: number) => new Date(at).toLocaleDateString(locale, { dateStyle: 'medium' });
  return `Expired ${day(expiresAt)}, removed ${day(expiresAt + EXPIRED_LINK_KEPT_MS)}`;
}

export const EXPIRED_LINKS_NOTE =
  'These links open for nobody. Renew one to open it again; each is removed 30 days after it expired.';

export const roleLabel = (edit: boolean) => (edit ? 'Editor' : 'Viewer');

/** One line on what each role may do, under the choice (docs/web-files.md "Sharing, clearer"). */
export function roleDescription(edit: boolean, isDirectory: boolean): string {
  if (!edit) return isDirectory ? 'Viewers can open and download everything in it.' : 'Viewers can open and download it.';
  return isDirectory
    ? 'Editors can also upload, make folders, rename, move and delete inside it.'
    : 'Editors can also rename it.';
}
