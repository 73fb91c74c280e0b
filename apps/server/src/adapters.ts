import { S3Client } from 'bun';
import { chmod, mkdir } from 'node:fs/promises';
import type { Config } from './config/config.ts';
import { createDiskBlobStore } from './infra/blobs/disk-blob-store.ts';
import { createS3BlobStore } from './infra/blobs/s3-blob-store.ts';
import { createAccountRepositories } from './infra/db/accounts/index.ts';
import { createFilesStore } from './infra/db/files/files-store.ts';
import { createQuotaStore } from './infra/db/files/quota-store.ts';
import { openPostgresDb } from './infra/db/postgres/open-postgres-db.ts';
import { openSqliteDb } from './infra/db/sqlite/open-sqlite-db.ts';
import { createMemoryEventBus } from './infra/events/memory-event-bus.ts';
import { createPgNotifyEventBus } from './infra/events/pg-notify-event-bus.ts';
import type { AccountRepositories } from './ports/accounts.ts';
import type { BlobStore } from './ports/blob-store.ts';
import type { Db } from './ports/db.ts';
import type { EventBus } from './ports/event-bus.ts';
import type { FilesStore } from './ports/files.ts';
import type { QuotaStore } from './ports/files/quota.ts';
import type { Logger } from './ports/logger.ts';

export interface Adapters {
  db: Db;
  blobs: BlobStore;
  events: EventBus;
  accounts: AccountRepositories;
  files: FilesStore;
  quota: QuotaStore;
  /** Closes the event bus, then the database. */
  close(): Promise<void>;
}

/**
 * The one place that turns configuration into adapters. Everything else sees only the ports.
 * Migrations run here, at start, before the server accepts a request.
 */
export async function openAdapters(config: Config, logger: Logger): Promise<Adapters> {
  if (config.database.kind === 'sqlite' || config.blobStore.kind === 'disk') await makePrivateDir(config.dataDir);
  const blobs = await openBlobStore(config, logger);
  // With PostgreSQL there may be several instances: fan events out through it.
  const events =
    config.database.kind === 'postgres'
      ? await createPgNotifyEventBus({ url: config.database.url, logger })
      : createMemoryEventBus(logger);
  let db: Db;
  try {
    db =
      config.database.kind === 'postgres'
        ? await openPostgresDb({ url: config.database.url, events, logger, testPause: config.testPause })
        : await openSqliteDb({ path: config.database.path, events, logger, testPause: config.testPause });
  } catch (error) {
    await events.close();
    throw error;
  }
  return {
    db,
    blobs,
    events,
    accounts: createAccountRepositories(db),
    files: createFilesStore(db),
    quota: createQuotaStore(db),
    async close() {
      await events.close().catch((error: unknown) => logger.error('closing event bus failed', { error: String(error) }));
      await db.close();
    },
  };
}

async function openBlobStore(config: Config, logger: Logger): Promise<BlobStore> {
  const settings = config.blobStore;
  if (settings.kind === 's3') {
    return createS3BlobStore(
      new S3Client({
        bucket: settings.bucket,
        ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
        ...(settings.region ? { region: settings.region } : {}),
        ...(settings.accessKeyId ? { accessKeyId: settings.accessKeyId } : {}),
        ...(settings.secretAccessKey ? { secretAccessKey: settings.secretAccessKey } : {}),
      }),
    );
  }
  const store = createDiskBlobStore(settings.dir);
  const swept = await store.sweepTemp();
  if (swept > 0) logger.warn('removed unfinished blob writes left by a crash', { count: swept });
  return store;
}

/**
 * The data directory holds the database and the blobs: 0700, so no other local user can read
 * either, whatever the umask or an earlier build left (a directory made 0755 is tightened).
 */
async function makePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
}
