/**
 * Blob keys of file parts: `part-<creation time, base 36>-<128 random bits>`. The prefix keeps
 * the orphan sweep away from other blobs (avatars); the time lets a sweep spare blobs written
 * so recently that another instance may still be about to commit the row naming them.
 */
export const PART_KEY_PREFIX = 'part-';
const PART_KEY = /^part-([0-9a-z]{1,11})-[0-9a-f]{32}$/;

export function newPartKey(now: number): string {
  const random = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('hex');
  return `${PART_KEY_PREFIX}${Math.max(0, Math.floor(now)).toString(36)}-${random}`;
}

/** When the key was made, or null for a key of another shape (left alone by the sweep). */
export function partKeyTime(key: string): number | null {
  const match = PART_KEY.exec(key);
  return match ? parseInt(match[1]!, 36) : null;
}
