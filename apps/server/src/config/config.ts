import { resolve } from 'node:path';
import { DEFAULT_RATE_LIMITS, RATE_LIMIT_NAMES, UNLIMITED, type RateLimits } from '../domain/accounts/rate-limits.ts';
import { DEFAULT_DELETED_NAME_GRACE_DAYS } from '../domain/files/account-deletion.ts';
import { DEFAULT_TRASH_RETENTION_DAYS } from '../domain/files/trash.ts';
import { DEFAULT_MAX_VERSIONS, DEFAULT_VERSION_RETENTION_DAYS } from '../domain/files/versions.ts';
import { DEFAULT_MAX_ITEMS_PER_USER } from '../domain/files/limits.ts';
import { parseTestPause, type TestPause } from '../infra/db/test-pause.ts';
import type { LogLevel } from '../ports/logger.ts';

const GiB = 1024 ** 3;

export type DatabaseConfig = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };

export type BlobStoreConfig =
  | { kind: 'disk'; dir: string }
  | {
      kind: 's3';
      bucket: string;
      endpoint: string | undefined;
      region: string | undefined;
      accessKeyId: string | undefined;
      secretAccessKey: string | undefined;
    };

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  database: DatabaseConfig;
  blobStore: BlobStoreConfig;
  defaultQuotaBytes: number;
  maxFileBytes: number;
  /** Items (files and folders) one user may own. */
  maxItemsPerUser: number;
  /**
   * The whole size of unfinished uploads one link, and one signed-in user other than the owner,
   * may hold in an owner's tree (docs/operations.md "Files: limits and large deletes").
   */
  maxUnfinishedBytesPerLink: number;
  maxUnfinishedBytesPerUploader: number;
  /** How long a deleted account's username stays reserved (docs/operations.md "Deleted accounts"). */
  deletedNameGraceDays: number;
  /** Days a deleted item stays in its owner's trash; 0: no trash (docs/operations.md "Trash"). */
  trashRetentionDays: number;
  /** Earlier versions kept per file (docs/operations.md "Versions"). */
  maxVersions: number;
  /** Days a version is kept after it stopped being the newest; 0: until MAX_VERSIONS pushes it out. */
  versionRetentionDays: number;
  /** Origin the browser sees (scheme://host[:port]), used for Origin checks and HSTS. */
  publicOrigin: string | undefined;
  trustProxy: boolean;
  /** DEFAULT_RATE_LIMITS, each overridable; RATE_LIMITS=off turns them all off (tests, dev). */
  rateLimits: RateLimits;
  webDist: string;
  logLevel: LogLevel;
  /** SEALBOX_TEST_PAUSE, for the fault tests only (infra/db/test-pause.ts); unset in production. */
  testPause?: TestPause | undefined;
}

export type Env = Record<string, string | undefined>;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`Invalid ${variable}: ${problem}`);
  }
}

/** The repo's apps/web/dist, wherever the process was started from. */
export const DEFAULT_WEB_DIST = resolve(import.meta.dir, '../../../web/dist');

const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error', 'silent'];

export function loadConfig(env: Env, cwd: string = process.cwd()): Config {
  const read = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const dataDir = resolve(cwd, read('DATA_DIR') ?? './data');
  const maxFileBytes = integer('MAX_FILE_BYTES', read('MAX_FILE_BYTES'), GiB, { min: 1 });
  // Unset: room for about two of the largest files in flight at once.
  const unfinished = (name: string) => integer(name, read(name), 2 * maxFileBytes, { min: 0 });
  return {
    host: read('HOST') ?? '0.0.0.0',
    port: integer('PORT', read('PORT'), 3000, { min: 0, max: 65535 }),
    dataDir,
    database: databaseConfig(read('DATABASE_URL'), dataDir),
    blobStore: blobStoreConfig(read, dataDir),
    defaultQuotaBytes: integer('DEFAULT_QUOTA_BYTES', read('DEFAULT_QUOTA_BYTES'), 10 * GiB, { min: 0 }),
    maxFileBytes,
    maxItemsPerUser: integer('MAX_ITEMS_PER_USER', read('MAX_ITEMS_PER_USER'), DEFAULT_MAX_ITEMS_PER_USER, { min: 1 }),
    maxUnfinishedBytesPerLink: unfinished('MAX_UNFINISHED_BYTES_PER_LINK'),
    maxUnfinishedBytesPerUploader: unfinished('MAX_UNFINISHED_BYTES_PER_UPLOADER'),
    deletedNameGraceDays: integer('DELETED_NAME_GRACE_DAYS', read('DELETED_NAME_GRACE_DAYS'), DEFAULT_DELETED_NAME_GRACE_DAYS, {
      min: 0,
      max: 36_500,
    }),
    trashRetentionDays: integer('TRASH_RETENTION_DAYS', read('TRASH_RETENTION_DAYS'), DEFAULT_TRASH_RETENTION_DAYS, {
      min: 0,
      max: 36_500,
    }),
    maxVersions: integer('MAX_VERSIONS', read('MAX_VERSIONS'), DEFAULT_MAX_VERSIONS, { min: 0, max: 1000 }),
    versionRetentionDays: integer('VERSION_RETENTION_DAYS', read('VERSION_RETENTION_DAYS'), DEFAULT_VERSION_RETENTION_DAYS, {
      min: 0,
      max: 36_500,
    }),
    publicOrigin: publicOrigin(read('PUBLIC_ORIGIN')),
    trustProxy: boolean('TRUST_PROXY', read('TRUST_PROXY'), false),
    rateLimits: rateLimits(read),
    webDist: read('WEB_DIST') ? resolve(cwd, read('WEB_DIST')!) : DEFAULT_WEB_DIST,
    logLevel: oneOf('LOG_LEVEL', read('LOG_LEVEL')?.toLowerCase(), LOG_LEVELS, 'info'),
    testPause: testPause(read('SEALBOX_TEST_PAUSE')),
  };
}

function integer(name: string, raw: string | undefined, fallback: number, bounds: { min: number; max?: number }): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `expected a whole number, got "${raw}"`);
  const value = Number(raw);
  const max = bounds.max ?? Number.MAX_SAFE_INTEGER;
  if (value < bounds.min || value > max) {
    throw new ConfigError(name, `expected a number from ${bounds.min} to ${max}, got ${raw}`);
  }
  return value;
}

function boolean(name: string, raw: string | undefined, fallback: boolean): boolean {
  if (raw === undefined) return fallback;
  const lower = raw.toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(lower)) return true;
  if (['0', 'false', 'no', 'off'].includes(lower)) return false;
  throw new ConfigError(name, `expected true or false, got "${raw}"`);
}

function oneOf<T extends string>(name: string, raw: string | undefined, allowed: readonly T[], fallback: T): T {
  if (raw === undefined) return fallback;
  if ((allowed as readonly string[]).includes(raw)) return raw as T;
  throw new ConfigError(name, `expected one of ${allowed.join(', ')}, got "${raw}"`);
}

function parseUrl(name: string, raw: string): URL {
  try {
    return new URL(raw);
  } catch {
    throw new ConfigError(name, 'not a valid URL');
  }
}

function databaseConfig(raw: string | undefined, dataDir: string): DatabaseConfig {
  if (raw === undefined) return { kind: 'sqlite', path: resolve(dataDir, 'sealbox.db') };
  const url = parseUrl('DATABASE_URL', raw);
  if (url.protocol === 'postgres:' || url.protocol === 'postgresql:') return { kind: 'postgres', url: raw };
  // Never echo the URL: it usually carries a password.
  throw new ConfigError('DATABASE_URL', `expected a postgres:// or postgresql:// URL, got scheme "${url.protocol}"`);
}

function blobStoreConfig(read: (name: string) => string | undefined, dataDir: string): BlobStoreConfig {
  const raw = read('BLOB_STORE');
  if (raw === undefined) return { kind: 'disk', dir: resolve(dataDir, 'blobs') };
  if (!raw.startsWith('s3://')) {
    throw new ConfigError('BLOB_STORE', `expected unset (local disk) or s3://bucket, got "${raw}"`);
  }
  const bucket = raw.slice('s3://'.length).replace(/\/+$/, '');
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
    throw new ConfigError('BLOB_STORE', `"${bucket}" is not a valid S3 bucket name`);
  }
  const endpoint = read('S3_ENDPOINT');
  if (endpoint !== undefined) {
    const url = parseUrl('S3_ENDPOINT', endpoint);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new ConfigError('S3_ENDPOINT', 'expected an http:// or https:// URL');
    }
  }
  const accessKeyId = read('S3_ACCESS_KEY_ID');
  const secretAccessKey = read('S3_SECRET_ACCESS_KEY');
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    throw new ConfigError(
      accessKeyId === undefined ? 'S3_ACCESS_KEY_ID' : 'S3_SECRET_ACCESS_KEY',
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together',
    );
  }
  return { kind: 's3', bucket, endpoint, region: read('S3_REGION'), accessKeyId, secretAccessKey };
}

function publicOrigin(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const url = parseUrl('PUBLIC_ORIGIN', raw);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError('PUBLIC_ORIGIN', 'expected an http:// or https:// origin');
  }
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash || url.username || url.password) {
    throw new ConfigError('PUBLIC_ORIGIN', 'expected an origin only (scheme://host[:port]), without path, query or credentials');
  }
  return url.origin;
}

/** RATE_LIMIT_LOGIN_IP=100/900 means 100 per 900 seconds; RATE_LIMITS=off disables all. */
function rateLimits(read: (name: string) => string | undefined): RateLimits {
  const all = read('RATE_LIMITS');
  if (all !== undefined && all.toLowerCase() !== 'off' && all.toLowerCase() !== 'on') {
    throw new ConfigError('RATE_LIMITS', `expected on or off, got "${all}"`);
  }
  const limits: RateLimits = { ...(all?.toLowerCase() === 'off' ? UNLIMITED : DEFAULT_RATE_LIMITS) };
  for (const name of RATE_LIMIT_NAMES) {
    const variable = `RATE_LIMIT_${name.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`;
    const raw = read(variable);
    if (raw === undefined) continue;
    const match = /^(\d+)\/(\d+)$/.exec(raw);
    if (!match || Number(match[2]) < 1) throw new ConfigError(variable, `expected count/seconds such as 10/60, got "${raw}"`);
    limits[name] = { max: Number(match[1]), windowMs: Number(match[2]) * 1000 };
  }
  return limits;
}

function testPause(raw: string | undefined): TestPause | undefined {
  try {
    return parseTestPause(raw);
  } catch (error) {
    throw new ConfigError('SEALBOX_TEST_PAUSE', (error as Error).message);
  }
}
