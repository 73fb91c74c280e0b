import { expect, test } from 'bun:test';
import { loadConfig } from './config.ts';
import { configSummary } from './summary.ts';

test('the start-up summary names where data goes, never a password or key', () => {
  const config = loadConfig({
    DATA_DIR: '/srv/sealbox',
    DATABASE_URL: 'postgres://sealbox:db-secret@db.internal:5432/sealbox?sslmode=require',
    BLOB_STORE: 's3://blobs',
    S3_ENDPOINT: 'https://minio.internal:9000',
    S3_REGION: 'eu-west-1',
    S3_ACCESS_KEY_ID: 'AKIA-KEY-ID',
    S3_SECRET_ACCESS_KEY: 's3-secret',
    RATE_LIMITS: 'off',
  });
  const summary = configSummary(config);
  expect(summary).toMatchObject({
    database: 'postgres://db.internal:5432/sealbox',
    blobStore: 's3://blobs',
    s3Endpoint: 'https://minio.internal:9000/',
    s3Region: 'eu-west-1',
    rateLimits: 'off',
  });
  const line = JSON.stringify(summary);
  for (const secret of ['db-secret', 'AKIA-KEY-ID', 's3-secret', 'sslmode']) expect(line).not.toContain(secret);
  expect(configSummary(loadConfig({ DATA_DIR: '/srv/sealbox' }))).toMatchObject({
    database: 'sqlite:/srv/sealbox/sealbox.db',
    blobStore: 'disk:/srv/sealbox/blobs',
    rateLimits: 'on',
  });
});
