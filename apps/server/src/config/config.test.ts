import { describe, expect, test } from 'bun:test';
import { DEFAULT_RATE_LIMITS } from '../domain/accounts/rate-limits.ts';
import { ConfigError, DEFAULT_WEB_DIST, loadConfig } from './config.ts';

const cwd = '/srv/sealbox';

function expectConfigError(env: Record<string, string>, variable: string) {
  let caught: unknown;
  try {
    loadConfig(env, cwd);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(ConfigError);
  expect((caught as ConfigError).variable).toBe(variable);
  expect((caught as Error).message).toContain(variable);
}

describe('loadConfig', () => {
  test('defaults', () => {
    const config = loadConfig({}, cwd);
    expect(config).toEqual({
      host: '0.0.0.0',
      port: 3000,
      dataDir: '/srv/sealbox/data',
      database: { kind: 'sqlite', path: '/srv/sealbox/data/sealbox.db' },
      blobStore: { kind: 'disk', dir: '/srv/sealbox/data/blobs' },
      defaultQuotaBytes: 10 * 1024 ** 3,
      maxFileBytes: 1024 ** 3,
      maxItemsPerUser: 1_000_000,
      maxUnfinishedBytesPerLink: 2 * 1024 ** 3,
      maxUnfinishedBytesPerUploader: 2 * 1024 ** 3,
      deletedNameGraceDays: 30,
      trashRetentionDays: 30,
      maxVersions: 10,
      versionRetentionDays: 30,
      publicOrigin: undefined,
      trustProxy: false,
      rateLimits: DEFAULT_RATE_LIMITS,
      webDist: DEFAULT_WEB_DIST,
      logLevel: 'info',
    });
  });

  test('default WEB_DIST is apps/web/dist of this repo', () => {
    expect(DEFAULT_WEB_DIST.endsWith('/apps/web/dist')).toBe(true);
    expect(DEFAULT_WEB_DIST).toBe(new URL('../../../web/dist', import.meta.url).pathname.replace(/\/$/, ''));
  });

  test('empty strings count as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: ' ' }, cwd).port).toBe(3000);
  });

  test('explicit values', () => {
    const config = loadConfig(
      {
        PORT: '8080',
        DATA_DIR: 'var',
        DATABASE_URL: 'postgresql://u:p@db:5432/sealbox',
        BLOB_STORE: 's3://sealbox-blobs',
        S3_ENDPOINT: 'http://127.0.0.1:9000',
        S3_REGION: 'eu-west-1',
        S3_ACCESS_KEY_ID: 'id',
        S3_SECRET_ACCESS_KEY: 'secret',
        DEFAULT_QUOTA_BYTES: '1000',
        MAX_FILE_BYTES: '500',
        MAX_ITEMS_PER_USER: '2000',
        MAX_UNFINISHED_BYTES_PER_LINK: '0',
        MAX_UNFINISHED_BYTES_PER_UPLOADER: '3000',
        PUBLIC_ORIGIN: 'https://drive.example.org/',
        TRUST_PROXY: 'true',
        WEB_DIST: 'web',
        LOG_LEVEL: 'WARN',
      },
      cwd,
    );
    expect(config.port).toBe(8080);
    expect(config.dataDir).toBe('/srv/sealbox/var');
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgresql://u:p@db:5432/sealbox' });
    expect(config.blobStore).toEqual({
      kind: 's3',
      bucket: 'sealbox-blobs',
      endpoint: 'http://127.0.0.1:9000',
      region: 'eu-west-1',
      accessKeyId: 'id',
      secretAccessKey: 'secret',
    });
    expect(config.defaultQuotaBytes).toBe(1000);
    expect(config.maxFileBytes).toBe(500);
    expect(config.maxItemsPerUser).toBe(2000);
    expect([config.maxUnfinishedBytesPerLink, config.maxUnfinishedBytesPerUploader]).toEqual([0, 3000]);
    expect(config.publicOrigin).toBe('https://drive.example.org');
    expect(config.trustProxy).toBe(true);
    expect(config.webDist).toBe('/srv/sealbox/web');
    expect(config.logLevel).toBe('warn');
  });

  test('unfinished-upload caps follow MAX_FILE_BYTES unless set', () => {
    const config = loadConfig({ MAX_FILE_BYTES: '5000', MAX_UNFINISHED_BYTES_PER_UPLOADER: '7' }, cwd);
    expect([config.maxUnfinishedBytesPerLink, config.maxUnfinishedBytesPerUploader]).toEqual([10_000, 7]);
  });

  test('DELETED_NAME_GRACE_DAYS: days, 0 frees a name at the next sweep, nonsense refused', () => {
    expect(loadConfig({ DELETED_NAME_GRACE_DAYS: '7' }, cwd).deletedNameGraceDays).toBe(7);
    expect(loadConfig({ DELETED_NAME_GRACE_DAYS: '0' }, cwd).deletedNameGraceDays).toBe(0);
    expect(() => loadConfig({ DELETED_NAME_GRACE_DAYS: '-1' }, cwd)).toThrow('DELETED_NAME_GRACE_DAYS');
    expect(() => loadConfig({ DELETED_NAME_GRACE_DAYS: '99999' }, cwd)).toThrow('DELETED_NAME_GRACE_DAYS');
  });

  test('postgres:// is accepted too', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://localhost/x' }, cwd).database.kind).toBe('postgres');
  });

  test.each([
    ['PORT', { PORT: 'abc' }],
    ['PORT', { PORT: '70000' }],
    ['PORT', { PORT: '-1' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://x/y' }],
    ['DATABASE_URL', { DATABASE_URL: 'not a url' }],
    ['BLOB_STORE', { BLOB_STORE: '/mnt/blobs' }],
    ['BLOB_STORE', { BLOB_STORE: 's3://' }],
    ['BLOB_STORE', { BLOB_STORE: 's3://b_ad' }],
    ['S3_ENDPOINT', { BLOB_STORE: 's3://bucket', S3_ENDPOINT: 'ftp://x' }],
    ['S3_SECRET_ACCESS_KEY', { BLOB_STORE: 's3://bucket', S3_ACCESS_KEY_ID: 'id' }],
    ['DEFAULT_QUOTA_BYTES', { DEFAULT_QUOTA_BYTES: '1.5' }],
    ['MAX_FILE_BYTES', { MAX_FILE_BYTES: '0' }],
    ['MAX_ITEMS_PER_USER', { MAX_ITEMS_PER_USER: '0' }],
    ['MAX_ITEMS_PER_USER', { MAX_ITEMS_PER_USER: 'lots' }],
    ['MAX_UNFINISHED_BYTES_PER_LINK', { MAX_UNFINISHED_BYTES_PER_LINK: '-1' }],
    ['MAX_UNFINISHED_BYTES_PER_UPLOADER', { MAX_UNFINISHED_BYTES_PER_UPLOADER: '1 GiB' }],
    ['PUBLIC_ORIGIN', { PUBLIC_ORIGIN: 'drive.example.org' }],
    ['PUBLIC_ORIGIN', { PUBLIC_ORIGIN: 'https://drive.example.org/app' }],
    ['TRUST_PROXY', { TRUST_PROXY: 'maybe' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'chatty' }],
    ['RATE_LIMITS', { RATE_LIMITS: 'sometimes' }],
    ['RATE_LIMIT_LOGIN_IP', { RATE_LIMIT_LOGIN_IP: '10' }],
    ['RATE_LIMIT_SEARCH_ACCOUNT', { RATE_LIMIT_SEARCH_ACCOUNT: '10/0' }],
  ] as [string, Record<string, string>][])('rejects a bad %s: %j', (variable, env) => {
    expectConfigError(env, variable);
  });

  test('a bad DATABASE_URL error does not echo the password', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://u:hunter2@x/y' }, cwd)).toThrow(/^(?!.*hunter2)/);
  });

  test('rate limits: each overridable as count/seconds, or all off', () => {
    const limits = loadConfig({ RATE_LIMIT_LOGIN_IP: '3/60', RATE_LIMIT_TOTP_ACCOUNT: '0/30' }, cwd).rateLimits;
    expect(limits.loginIp).toEqual({ max: 3, windowMs: 60_000 });
    expect(limits.totpAccount).toEqual({ max: 0, windowMs: 30_000 });
    expect(limits.checkIp).toEqual(DEFAULT_RATE_LIMITS.checkIp);
    expect(loadConfig({ RATE_LIMIT_CREATE_ITEM_ACCOUNT: '5000/300' }, cwd).rateLimits.createItemAccount).toEqual({
      max: 5000,
      windowMs: 300_000,
    });
    const off = loadConfig({ RATE_LIMITS: 'off', RATE_LIMIT_CHECK_IP: '5/60' }, cwd).rateLimits;
    expect(off.loginIp.max).toBe(Number.POSITIVE_INFINITY);
    expect(off.checkIp).toEqual({ max: 5, windowMs: 60_000 });
  });
});
