import { plaintextSize } from '@sealbox/crypto';
import type { QuotaRecord } from '../../ports/files.ts';
import { DomainError } from '../errors.ts';
import type { FilesDeps } from './deps.ts';

/** SPEC 8's texts. */
export const QUOTA_MESSAGE = 'Not enough storage space';
export const TOO_LARGE_MESSAGE = 'File is too large';

/** MAX_FILE_BYTES bounds the plaintext: a file of exactly the limit can be stored. */
export function checkFileLimit(deps: FilesDeps, cipherSize: number): void {
  if (plaintextSize(cipherSize) > deps.maxFileBytes) throw new DomainError('FILE_TOO_LARGE', TOO_LARGE_MESSAGE);
}

/** The quota of a user that exists. */
export function existingQuota(quota: QuotaRecord | undefined): QuotaRecord {
  if (!quota) throw new DomainError('NOT_FOUND', 'User not found');
  return quota;
}

/** used + reserved + extra must stay within total (docs/protocol.md "Quota"). */
export function checkQuota(maybeQuota: QuotaRecord | undefined, extra: number): QuotaRecord {
  const quota = existingQuota(maybeQuota);
  if (quota.usedSpace + quota.reservedSpace + extra > quota.totalSpace) throw new DomainError('QUOTA_EXCEEDED', QUOTA_MESSAGE);
  return quota;
}
