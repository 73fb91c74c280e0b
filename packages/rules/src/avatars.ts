/**
 * Avatar images (PUT /api/profile/upload): the server decides the type by the bytes and stores the
 * image under its own extension; the browser checks type and size first only to spare a round trip.
 */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;

/** The only types accepted, by the extension the server stores each under. */
export const AVATAR_TYPES = {
  png: 'image/png',
  jpg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
} as const;

export type AvatarExtension = keyof typeof AVATAR_TYPES;
