import postgres from 'postgres';
import { SHARED_SWEEP_GRACE_MS } from '../src/domain/files/index.ts';
import { sweepOrphanBlobs } from '../src/domain/files/sweep.ts';
import { createS3BlobStore } from '../src/infra/blobs/s3-blob-store.ts';
import { createFilesStore } from '../src/infra/db/files/files-store.ts';
import { openPostgresDb } from '../src/infra/db/postgres/open-postgres-db.ts';
import { createMemoryEventBus } from '../src/infra/events/memory-event-bus.ts';
import { silentLogger } from '../src/infra/log/json-logger.ts';
import { crashScenarios, type CrashBackend } from './files/crash-scenarios.ts';
import { s3Env, startLocalS3 } from './support/s3rver.ts';
import { postgresAvailability, reportUnavailable, throwawayDatabase } from './support/services.ts';
import { localS3Client, postgresTruth, s3Blobs } from './support/storage-truth.ts';

/**
 * The kill -9 scenarios of files/crash-scenarios.ts on PostgreSQL (a fresh database per run,
 * dropped after) and S3 (s3rver over a fresh directory, stopped after), inspected through
 * postgres.js and by listing the bucket.
 */
const SUITE = 'crash safety on PostgreSQL + S3';
const availability = await postgresAvailability();

if (availability.available) {
  crashScenarios(SUITE, async (): Promise<CrashBackend> => {
    const database = await throwawayDatabase('sealbox_crash');
    const sql = postgres(database.url, { max: 2, onnotice: () => {} });
    const s3 = await startLocalS3('sealbox-crash');
    const client = localS3Client(s3);
    return {
      env: {
        DATABASE_URL: database.url,
        ...s3Env(s3),
      },
      sweepGraceMs: SHARED_SWEEP_GRACE_MS,
      inspect: (userId) => postgresTruth(sql, userId, { allItems: true }),
      blobs: () => s3Blobs(client),
      async putBlob(key, bytes) {
        await client.write(key, bytes);
      },
      async inFlightBytes() {
        return null;
      },
      async sweepAfterGrace() {
        const db = await openPostgresDb({ url: database.url, events: createMemoryEventBus(silentLogger), logger: silentLogger });
        try {
          const deps = {
            store: createFilesStore(db),
            blobs: createS3BlobStore(client),
            logger: silentLogger,
            clock: () => Date.now() + SHARED_SWEEP_GRACE_MS + 60_000,
            maxFileBytes: Number.MAX_SAFE_INTEGER,
          };
          return await sweepOrphanBlobs(deps, SHARED_SWEEP_GRACE_MS);
        } finally {
          await db.close();
        }
      },
      async cleanup() {
        await sql.end({ timeout: 5 });
        await database.drop();
        await s3.stop();
      },
    };
  });
} else {
  reportUnavailable(SUITE, availability.reason);
}
