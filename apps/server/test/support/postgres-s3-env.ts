import { S3Client } from 'bun';
import { createS3BlobStore } from '../../src/infra/blobs/s3-blob-store.ts';
import type { BlobStore } from '../../src/ports/blob-store.ts';
import type { Db } from '../../src/ports/db.ts';
import type { EventBus } from '../../src/ports/event-bus.ts';
import { startLocalS3 } from './s3rver.ts';
import { throwawayPostgres } from './postgres-schema.ts';
import { postgresAvailability, reportUnavailable } from './services.ts';

/** A fresh database schema and S3 bucket for one harness, dropped on cleanup. */
export type MakePostgresS3Env = (events: EventBus) => Promise<{ db: Db; blobs: BlobStore; cleanup(): Promise<void> }>;

/**
 * Hands `register` a maker of throwaway PostgreSQL schemas and S3 buckets (the local S3-protocol
 * server), or reports the suite as unavailable (a failure where services are required).
 */
export async function withPostgresAndS3(
  suite: string,
  prefix: string,
  register: (makeEnv: MakePostgresS3Env) => void,
): Promise<void> {
  const availability = await postgresAvailability();
  if (!availability.available) return reportUnavailable(`${suite}: postgres + s3`, availability.reason);
  const s3Reason = await startLocalS3()
    .then((s3) => s3.stop().then(() => undefined))
    .catch((error: unknown) => `could not start s3rver on 127.0.0.1: ${(error as Error).message}`);
  if (s3Reason !== undefined) return reportUnavailable(`${suite}: postgres + s3`, s3Reason);
  register(async (events) => {
    const { db, schema, cleanup } = await throwawayPostgres(`sealbox_${prefix}`, events, 8);
    const s3 = await startLocalS3(`${prefix}-${schema.slice(-8).toLowerCase()}`);
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
        await s3.stop();
        await cleanup();
      },
    };
  });
}
