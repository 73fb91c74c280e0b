/**
 * An unfinished upload in the owner's tree as GET /api/uploads lists it (docs/protocol.md "Uploads
 * by others"): the fields both sides read as sent. Its item and progress each side gives its own form.
 */
export interface UnfinishedUploadEntry {
  uploadId: string;
  /** The link it was started through, or null. */
  linkId: string | null;
  startedAt: number;
  lastActivityAt: number;
  expiresAt: number;
}
