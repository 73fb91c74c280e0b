import { S3Client } from 'bun';
import postgres from 'postgres';
import { createS3BlobStore } from '../src/infra/blobs/s3-blob-store.ts';
import { openPostgresDb } from '../src/infra/db/postgres/open-postgres-db.ts';
import { silentLogger } from '../src/infra/log/json-logger.ts';
import { sharingSuite } from './sharing/sharing.suite.ts';
import { startLocalS3 } from './support/s3rver.ts';
import { postgresAvailability, reportUnavailable, TEST_DATABASE_URL, uniqueIdentifier } from './support/services.ts';

const availability = await postgresAvailability();
let s3Reason = '';
const s3Works = await startLocalS3()
  .then((s3) => s3.stop().then(() => true))
  .catch((error: unknown) => {
    s3Reason = `could not start s3rver on 127.0.0.1: ${(error as Error).message}`;
    return false;
  });

if (!availability.available) {
  reportUnavailable('sharing: postgres + s3', availability.reason);
} else if (!s3Works) {
  reportUnavailable('sharing: postgres + s3', s3Reason);
} else {
  sharingSuite('postgres + s3 (s3rver)', async (events) => {
    const schema = uniqueIdentifier('sealbox_sharing');
    const admin = postgres(TEST_DATABASE_URL, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create schema ${schema}`);
    const db = await openPostgresDb({ url: TEST_DATABASE_URL, events, logger: silentLogger, searchPath: schema, max: 8 });
    const s3 = await startLocalS3(`sharing-${schema.slice(-8).toLowerCase()}`);
    const client = new S3Client({
      endpoint: s3.endpoint,
      bucket: s3.bucket,
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
      region: 'us-east-1',
    });
    return {
      db,
      blobs: createS3BlobStore(client),
      async cleanup() {
        await db.close();
        await s3.stop();
        await admin.unsafe(`drop schema ${schema} cascade`);
        await admin.end({ timeout: 5 });
      },
    };
  });
}
