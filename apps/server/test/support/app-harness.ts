import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UNLIMITED } from '../../src/domain/accounts/rate-limits.ts';
import { createApp, type AppDeps } from '../../src/http/app.ts';
import { createFilesStore } from '../../src/infra/db/files/files-store.ts';
import { createQuotaStore } from '../../src/infra/db/files/quota-store.ts';
import { createAccountRepositories } from '../../src/infra/db/accounts/index.ts';
import { createMemoryEventBus } from '../../src/infra/events/memory-event-bus.ts';
import { silentLogger } from '../../src/infra/log/json-logger.ts';
import type { BlobStore } from '../../src/ports/blob-store.ts';
import type { Db } from '../../src/ports/db.ts';
import type { EventBus, SealboxEvent } from '../../src/ports/event-bus.ts';

export const QUOTA = 5 * 1024 ** 3;

/** Time the apps read, moved by hand so tests never wait for expiries. */
export interface Clock {
  now: number;
  advance(ms: number): void;
}

/** A database and blob store for one harness; `dir` is a temp directory removed on cleanup. */
export type OpenStorage = (events: EventBus, dir: string) => Promise<{ db: Db; blobs: BlobStore; cleanup(): Promise<void> }>;

export interface AppHarness {
  db: Db;
  blobs: BlobStore;
  events: EventBus;
  /** Every event published, in order. */
  delivered: SealboxEvent[];
  clock: Clock;
  /** An app (an "instance") over the harness's database, blob store and clock. */
  makeApp(overrides?: Partial<AppDeps>): ReturnType<typeof createApp>;
  cleanup(): Promise<void>;
}

/** The in-process server the HTTP suites drive: no web build, unlimited rates unless overridden. */
export async function openAppHarness(tempPrefix: string, openStorage: OpenStorage): Promise<AppHarness> {
  const events = createMemoryEventBus(silentLogger);
  const delivered: SealboxEvent[] = [];
  events.subscribe((event) => delivered.push(event));
  const dir = await mkdtemp(join(tmpdir(), tempPrefix));
  const { db, blobs, cleanup } = await openStorage(events, dir);
  const clock: Clock = {
    now: Date.now(),
    advance(ms) {
      this.now += ms;
    },
  };
  const makeApp = (overrides: Partial<AppDeps> = {}) =>
    createApp({
      db,
      blobs,
      events,
      logger: silentLogger,
      web: { root: join(dir, 'no-web') },
      publicOrigin: undefined,
      maxBodyBytes: 64 * 1024 * 1024,
      accounts: createAccountRepositories(db),
      files: createFilesStore(db),
      quota: createQuotaStore(db),
      defaultQuotaBytes: QUOTA,
      trustProxy: true,
      rateLimits: UNLIMITED,
      clock: () => clock.now,
      ...overrides,
    });
  return {
    db,
    blobs,
    events,
    delivered,
    clock,
    makeApp,
    async cleanup() {
      await cleanup();
      await events.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
