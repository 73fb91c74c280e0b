import { partCount, plaintextSize } from '@sealbox/crypto';
import { DomainError } from '../errors.ts';

/**
 * Field rules of docs/protocol.md "Items" and "Files and uploads". Every message names the
 * field and the rule, never the value (it may be a ciphertext or a key).
 */

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export const NONCE_BYTES = 12;
/** AES-GCM over a 32-byte key: 32 + 16-byte tag. */
export const WRAPPED_KEY_BYTES = 48;
const TAG_BYTES = 16;
/** Encrypted names and mime types: at most 4 KiB of ciphertext. */
export const MAX_SEALED_TEXT_BYTES = 4096;

export function invalid(message: string): DomainError {
  return new DomainError('VALIDATION', message);
}

export function isUuidV4(value: unknown): value is string {
  return typeof value === 'string' && UUID_V4.test(value);
}

export function uuid(value: unknown, field: string): string {
  if (!isUuidV4(value)) throw invalid(`${field} must be a lowercase UUID v4`);
  return value;
}

/** Canonical standard base64 with padding; returns the decoded length. */
export function base64Length(value: unknown, field: string): number {
  if (typeof value !== 'string' || value.length === 0 || !BASE64.test(value)) {
    throw invalid(`${field} must be standard base64 with padding`);
  }
  const padding = value.endsWith('==') ? 2 : value.endsWith('=') ? 1 : 0;
  const length = (value.length / 4) * 3 - padding;
  // Non-zero bits in the last character's unused positions make a non-canonical encoding.
  if (Buffer.from(value, 'base64').toString('base64') !== value) throw invalid(`${field} must be canonical base64`);
  return length;
}

export function base64Exact(value: unknown, field: string, bytes: number): string {
  if (base64Length(value, field) !== bytes) throw invalid(`${field} must be ${bytes} bytes`);
  return value as string;
}

export function base64Between(value: unknown, field: string, min: number, max: number): string {
  const length = base64Length(value, field);
  if (length < min || length > max) throw invalid(`${field} must be ${min} to ${max} bytes`);
  return value as string;
}

/** K under a recipient's RSA-OAEP-4096 key (the only key size the server accepts at registration). */
export const RSA_WRAPPED_KEY_BYTES = 512;
/** An Ed25519 signature, or an ECDSA P-256 one as WebCrypto writes it (r || s): 64 bytes either way. */
export const SIGNATURE_BYTES = 64;

/** Link ids: 128 random bits as unpadded base64url, 22 characters, the last holding 2 bits. */
const LINK_ID = /^[A-Za-z0-9_-]{21}[AQgw]$/;

export function isLinkId(value: unknown): value is string {
  return typeof value === 'string' && LINK_ID.test(value);
}

export function linkId(value: unknown, field = 'linkId'): string {
  if (!isLinkId(value)) throw invalid(`${field} must be a link id (22 characters of base64url)`);
  return value;
}

export const nonce = (value: unknown, field: string) => base64Exact(value, field, NONCE_BYTES);
export const wrappedKey = (value: unknown, field: string) => base64Exact(value, field, WRAPPED_KEY_BYTES);
/** A sealed name: at least one byte of UTF-8 plus the tag. */
export const sealedName = (value: unknown, field: string) => base64Between(value, field, TAG_BYTES + 1, MAX_SEALED_TEXT_BYTES);
export const sealedMime = (value: unknown, field: string) => base64Between(value, field, TAG_BYTES, MAX_SEALED_TEXT_BYTES);

/** A ciphertext size some plaintext produces (docs/protocol.md "Contents"). */
export function cipherSize(value: unknown, field = 'size'): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw invalid(`${field} must be a whole number`);
  try {
    plaintextSize(value);
  } catch {
    throw invalid(`${field} is not a size any plaintext encrypts to`);
  }
  return value;
}

export function partsOf(size: number): number {
  return partCount(size);
}

/** The upload metadata of POST /api/upload, as the server keeps it. */
export interface UploadMetadata {
  id: string;
  parentId: string | null;
  isDirectory: boolean;
  encryptedFileName: string;
  nameNonce: string;
  encryptedKey: string;
  keyNonce: string;
  encryptedMimeType: string | null;
  mimeTypeNonce: string | null;
  fileNonce: string | null;
  size: number | null;
}

const METADATA_FIELDS = new Set([
  'id',
  'parentId',
  'isDirectory',
  'encryptedFileName',
  'nameNonce',
  'encryptedKey',
  'keyNonce',
  'encryptedMimeType',
  'mimeTypeNonce',
  'fileNonce',
  'size',
]);

/** Up to 4 KiB sealed name and mime in base64 plus the rest: far below this. */
export const MAX_METADATA_CHARS = 32 * 1024;

/**
 * Parses the multipart `metadata` field strictly: JSON object, no unknown keys, every field of
 * its type and exact length. Optional fields may be absent or null. A folder carries no file
 * fields; a file needs fileNonce and both or neither of the mime fields. With `versionOf`, the
 * metadata of a new version of that file (`parseVersionMetadata`).
 */
export function parseUploadMetadata(text: string): UploadMetadata | VersionMetadata {
  if (text.length > MAX_METADATA_CHARS) throw invalid('metadata is too long');
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw invalid('metadata must be JSON');
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw invalid('metadata must be a JSON object');
  const fields = raw as Record<string, unknown>;
  if (fields.versionOf !== undefined) return parseVersionMetadata(fields);
  for (const key of Object.keys(fields))
    if (!METADATA_FIELDS.has(key)) throw invalid(`metadata has an unknown field ${key.slice(0, 40)}`);
  const present = (key: string) => fields[key] !== undefined && fields[key] !== null;

  if (typeof fields.isDirectory !== 'boolean') throw invalid('isDirectory must be a boolean');
  const isDirectory = fields.isDirectory;
  const id = uuid(fields.id, 'id');
  if (fields.parentId === undefined) throw invalid('parentId is required (null for the top level)');
  const parentId = fields.parentId === null ? null : uuid(fields.parentId, 'parentId');
  const meta: UploadMetadata = {
    id,
    parentId,
    isDirectory,
    encryptedFileName: sealedName(fields.encryptedFileName, 'encryptedFileName'),
    nameNonce: nonce(fields.nameNonce, 'nameNonce'),
    encryptedKey: wrappedKey(fields.encryptedKey, 'encryptedKey'),
    keyNonce: nonce(fields.keyNonce, 'keyNonce'),
    encryptedMimeType: null,
    mimeTypeNonce: null,
    fileNonce: null,
    size: null,
  };
  if (isDirectory) {
    for (const key of ['encryptedMimeType', 'mimeTypeNonce', 'fileNonce', 'size']) {
      if (present(key)) throw invalid(`a folder has no ${key}`);
    }
    return meta;
  }
  if (present('encryptedMimeType') !== present('mimeTypeNonce')) {
    throw invalid('encryptedMimeType and mimeTypeNonce go together');
  }
  if (present('encryptedMimeType')) {
    meta.encryptedMimeType = sealedMime(fields.encryptedMimeType, 'encryptedMimeType');
    meta.mimeTypeNonce = nonce(fields.mimeTypeNonce, 'mimeTypeNonce');
  }
  meta.fileNonce = nonce(fields.fileNonce, 'fileNonce');
  if (present('size')) meta.size = cipherSize(fields.size);
  return meta;
}

/**
 * The upload metadata of a new version of a file (docs/protocol.md "Versions"): the file's id and
 * the new content's fields, sealed under the file's K. Name and key stay the file's; without the
 * mime fields the file keeps its sealed mime type.
 */
export interface VersionMetadata {
  versionOf: string;
  fileNonce: string;
  encryptedMimeType: string | null;
  mimeTypeNonce: string | null;
  size: number | null;
}

const VERSION_FIELDS = new Set(['versionOf', 'fileNonce', 'encryptedMimeType', 'mimeTypeNonce', 'size']);

function parseVersionMetadata(fields: Record<string, unknown>): VersionMetadata {
  for (const key of Object.keys(fields))
    if (!VERSION_FIELDS.has(key)) throw invalid(`the metadata of a new version has no field ${key.slice(0, 40)}`);
  const present = (key: string) => fields[key] !== undefined && fields[key] !== null;
  if (present('encryptedMimeType') !== present('mimeTypeNonce')) {
    throw invalid('encryptedMimeType and mimeTypeNonce go together');
  }
  const sealed = present('encryptedMimeType');
  return {
    versionOf: uuid(fields.versionOf, 'versionOf'),
    fileNonce: nonce(fields.fileNonce, 'fileNonce'),
    encryptedMimeType: sealed ? sealedMime(fields.encryptedMimeType, 'encryptedMimeType') : null,
    mimeTypeNonce: sealed ? nonce(fields.mimeTypeNonce, 'mimeTypeNonce') : null,
    size: present('size') ? cipherSize(fields.size) : null,
  };
}
