import { S3Client } from 'bun';
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
    const client = new S3Client({
      endpoint: s3.endpoint,
      bucket: s3.bucket,
      region: 'us-east-1',
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
    });
    return {
      env: {
        DATABASE_URL: database.url,
        ...s3Env(s3),
      },
      sweepGraceMs: SHARED_SWEEP_GRACE_MS,
      async inspect(userId) {
        // BIGINT and sum() come back as strings from postgres.js.
        const [user] = await sql`select used_space, reserved_space from users where id = ${userId}`;
        const [stored] = await sql`
          select coalesce(sum(p.size), 0) as total from item_parts p join items i on i.id = p.item_id where i.owner_id = ${userId}`;
        const [reservedByUploads] = await sql`
          select coalesce(sum(u.reserved_remaining), 0) as total from uploads u join items i on i.id = u.item_id where i.owner_id = ${userId}`;
        const named = (await sql<Array<{ blob_key: string }>>`select blob_key from item_parts`).map((r) => r.blob_key).sort();
        const items = [...(await sql<Array<{ id: string; state: string }>>`select id, state from items`)].map((r) => ({
          id: r.id,
          state: r.state,
        }));
        return {
          used: Number(user!.used_space),
          reserved: Number(user!.reserved_space),
          stored: Number(stored!.total),
          reservedByUploads: Number(reservedByUploads!.total),
          named,
          items,
        };
      },
      async blobs() {
        const keys: string[] = [];
        let continuationToken: string | undefined;
        do {
          const page = await client.list({ prefix: 'part-', ...(continuationToken ? { continuationToken } : {}) });
          for (const object of page.contents ?? []) keys.push(object.key);
          continuationToken = page.isTruncated ? page.nextContinuationToken : undefined;
        } while (continuationToken);
        // Unfinished multipart uploads never become objects; there is no temp area to check.
        return { keys: keys.sort(), temp: [] };
      },
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
