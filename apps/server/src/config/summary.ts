import type { LogFields } from '../ports/logger.ts';
import type { Config } from './config.ts';

/**
 * What a start runs with, for the log: where data goes and the limits in force. Never a
 * password, key or full connection string: URLs are cut to scheme, host, port and path.
 */
export function configSummary(config: Config): LogFields {
  const database = config.database;
  const blobs = config.blobStore;
  return {
    host: config.host,
    port: config.port,
    dataDir: config.dataDir,
    database: database.kind === 'sqlite' ? `sqlite:${database.path}` : withoutSecrets(database.url),
    blobStore: blobs.kind === 'disk' ? `disk:${blobs.dir}` : `s3://${blobs.bucket}`,
    s3Endpoint: blobs.kind === 's3' && blobs.endpoint ? withoutSecrets(blobs.endpoint) : undefined,
    s3Region: blobs.kind === 's3' ? blobs.region : undefined,
    publicOrigin: config.publicOrigin ?? null,
    trustProxy: config.trustProxy,
    rateLimits: Object.values(config.rateLimits).some((limit) => Number.isFinite(limit.max)) ? 'on' : 'off',
    defaultQuotaBytes: config.defaultQuotaBytes,
    maxFileBytes: config.maxFileBytes,
    maxItemsPerUser: config.maxItemsPerUser,
    maxUnfinishedBytesPerLink: config.maxUnfinishedBytesPerLink,
    maxUnfinishedBytesPerUploader: config.maxUnfinishedBytesPerUploader,
    deletedNameGraceDays: config.deletedNameGraceDays,
    trashRetentionDays: config.trashRetentionDays,
    maxVersions: config.maxVersions,
    versionRetentionDays: config.versionRetentionDays,
    webDist: config.webDist,
    logLevel: config.logLevel,
  };
}

function withoutSecrets(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return '<unparseable url>';
  }
}
