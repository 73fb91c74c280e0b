import { describe, expect, test } from 'bun:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { loadConfig } from '../src/config/config.ts';
import { silentLogger } from '../src/infra/log/json-logger.ts';
import type { SealboxEvent } from '../src/ports/event-bus.ts';
import { startServer } from '../src/server.ts';
import { readAll } from './contracts/blob-store.contract.ts';
import { startLocalS3 } from './support/s3rver.ts';
import { postgresAvailability, reportUnavailable, TEST_DATABASE_URL, uniqueIdentifier, waitFor } from './support/services.ts';

const availability = await postgresAvailability();

/** A throw-away database, so this suite's migrations never touch the shared test schema. */
async function withDatabase<T>(fn: (url: string) => Promise<T>): Promise<T> {
  const name = uniqueIdentifier('sealbox_scaleout');
  const admin = postgres(TEST_DATABASE_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  try {
    return await fn(url.toString());
  } finally {
    await admin.unsafe(`drop database ${name} with (force)`);
    await admin.end({ timeout: 5 });
  }
}

if (availability.available) {
  describe('two instances on PostgreSQL and S3', () => {
    test('share metadata, blobs and events', async () => {
      const s3 = await startLocalS3('sealbox-scaleout');
      const dataDir = await mkdtemp(join(tmpdir(), 'sealbox-scaleout-'));
      try {
        await withDatabase(async (databaseUrl) => {
          const config = loadConfig({
            HOST: '127.0.0.1',
            PORT: '0',
            DATA_DIR: dataDir,
            WEB_DIST: dataDir,
            DATABASE_URL: databaseUrl,
            BLOB_STORE: `s3://${s3.bucket}`,
            S3_ENDPOINT: s3.endpoint,
            S3_REGION: 'us-east-1',
            S3_ACCESS_KEY_ID: s3.accessKeyId,
            S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
          });
          const [a, b] = await Promise.all([
            startServer(config, { logger: silentLogger }),
            startServer(config, { logger: silentLogger }),
          ]);
          try {
            for (const server of [a, b]) {
              const health = await fetch(`${server.url}/api/health`);
              expect(await health.json()).toEqual({ status: 'ok', db: 'ok', blobs: 'ok', events: 'ok' });
            }
            expect(a.adapters.db.dialect).toBe('postgres');

            const atB: SealboxEvent[] = [];
            b.adapters.events.subscribe((event) => atB.push(event));
            await a.adapters.db.transaction(async (tx) => {
              tx.publish({ kind: 'item.created', itemId: 'item-1', parentId: null, userIds: ['user-1'] });
            });
            await waitFor(() => atB.length === 1, 3000, 'the event at the other instance');

            await a.adapters.blobs.put('shared-blob-1', new Uint8Array([1, 2, 3]));
            expect(await readAll(await b.adapters.blobs.get('shared-blob-1'))).toEqual(new Uint8Array([1, 2, 3]));
          } finally {
            await a.stop();
            await b.stop();
          }
        });
      } finally {
        await s3.stop();
        await rm(dataDir, { recursive: true, force: true });
      }
    }, 30_000);
  });
} else {
  reportUnavailable('two instances on PostgreSQL and S3', availability.reason);
}
