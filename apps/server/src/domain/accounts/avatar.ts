import { AVATAR_MAX_BYTES, AVATAR_TYPES, type AvatarExtension } from '@sealbox/rules';
import { DomainError, isDomainError } from '../errors.ts';
import type { AccountsDeps } from './deps.ts';
import { isUuid } from './validation.ts';

const startsWith = (bytes: Uint8Array, prefix: readonly number[], at = 0) =>
  bytes.length >= at + prefix.length && prefix.every((b, i) => bytes[at + i] === b);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** Magic bytes of the four formats. Anything else (SVG, HTML, text) is refused. */
export function sniffImage(bytes: Uint8Array): AvatarExtension | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpg';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'gif';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'webp';
  return null;
}

/** Server-chosen blob key (BlobStore keys are [A-Za-z0-9_-]{8,128}); one avatar per user. */
export function avatarBlobKey(userId: string): string {
  return `avatar-${userId}`;
}

export async function uploadAvatar(
  deps: AccountsDeps,
  userId: string,
  bytes: Uint8Array,
): Promise<{ avatarExtension: AvatarExtension }> {
  if (bytes.length > AVATAR_MAX_BYTES) throw new DomainError('TOO_LARGE', 'Avatar is larger than 2 MiB');
  const extension = sniffImage(bytes);
  if (extension === null) throw new DomainError('VALIDATION', 'Avatar must be a PNG, JPEG, WebP or GIF image');
  // The blob is replaced atomically; a stale extension in the URL falls back to the default.
  await deps.blobs.put(avatarBlobKey(userId), bytes);
  const user = await deps.users.update(userId, { avatarExtension: extension }, { kind: 'profile.changed', userIds: [userId] });
  if (!user) throw new DomainError('UNAUTHORIZED', 'Account no longer exists');
  return { avatarExtension: extension };
}

export type AvatarAnswer = { kind: 'image'; body: ReadableStream<Uint8Array>; contentType: string } | { kind: 'default' };

const AVATAR_FILE = /^([0-9a-f-]{36})\.([a-z]{1,5})$/;

/**
 * GET /api/avatars/{id}.{ext}: the stored image when the user has one of that extension,
 * the built-in default otherwise. A name not shaped like that is NOT_FOUND.
 */
export async function openAvatar(deps: AccountsDeps, fileName: string): Promise<AvatarAnswer> {
  const match = AVATAR_FILE.exec(fileName);
  if (!match || !isUuid(match[1]!)) throw new DomainError('NOT_FOUND', 'No such avatar');
  const [, userId, extension] = match as unknown as [string, string, string];
  const user = await deps.users.findById(userId);
  if (!user?.avatarExtension || user.avatarExtension !== extension || !(extension in AVATAR_TYPES)) return { kind: 'default' };
  try {
    const body = await deps.blobs.get(avatarBlobKey(userId));
    return { kind: 'image', body, contentType: AVATAR_TYPES[extension as AvatarExtension] };
  } catch (error) {
    if (isDomainError(error, 'NOT_FOUND')) return { kind: 'default' };
    throw error;
  }
}
