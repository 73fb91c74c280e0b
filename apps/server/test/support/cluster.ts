import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Browser } from '../accounts/harness.ts';
import { isolatedEnv, spawnMain, type MainProcess } from './main-process.ts';
import { s3Env, startLocalS3, type LocalS3 } from './s3rver.ts';
import { throwawayDatabase, type ThrowawayDatabase } from './services.ts';

export interface Cluster {
  /** The instances, in the order they started. */
  servers: MainProcess[];
  database: ThrowawayDatabase;
  s3: LocalS3;
}

/**
 * `instances` server processes on one throw-away PostgreSQL database and one s3rver bucket, as
 * an administrator runs several (docs/operations.md); all stopped and removed after `fn`.
 */
export async function withCluster(prefix: string, instances: number, fn: (cluster: Cluster) => Promise<void>): Promise<void> {
  const database = await throwawayDatabase(`sealbox_${prefix}`);
  const dataDir = await mkdtemp(join(tmpdir(), `sealbox-${prefix}-`));
  let s3: LocalS3 | undefined;
  const servers: MainProcess[] = [];
  try {
    s3 = await startLocalS3(`sealbox-${prefix}`);
    // A stand-in for the web build, which the server refuses to start without.
    await writeFile(join(dataDir, 'index.html'), '<!doctype html><title>Sealbox</title>');
    const env = isolatedEnv(dataDir, {
      DATA_DIR: dataDir,
      WEB_DIST: dataDir,
      LOG_LEVEL: 'info',
      RATE_LIMITS: 'off',
      DATABASE_URL: database.url,
      ...s3Env(s3),
    });
    // One after the other: they would all run the migrations at once otherwise.
    for (let n = 0; n < instances; n++) servers.push(await spawnMain(env));
    try {
      await fn({ servers, database, s3 });
    } catch (error) {
      // An instance that died mid-test shows only as refused connections: say which, and why.
      const died = servers.filter((server) => server.child.exitCode !== null || server.child.signalCode !== null);
      for (const server of died) {
        console.error(
          `instance ${server.url} exited (${server.child.exitCode ?? server.child.signalCode}):\n${server.output().slice(-4000)}`,
        );
      }
      throw error;
    }
  } finally {
    for (const server of servers) {
      server.child.kill('SIGTERM');
      await server.child.exited;
    }
    await s3?.stop();
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * A client of one instance over real HTTP, with no Origin (not a browser: nothing to forge);
 * with a timeout every request is bounded, so a hang shows as a failure.
 */
export function browserOn(server: MainProcess, cookie?: string, timeoutMs?: number): Browser {
  const browser = new Browser(
    {
      handle: (request) => {
        const { pathname, search } = new URL(request.url);
        return fetch(new Request(server.url + pathname + search, request), {
          ...(timeoutMs ? { signal: AbortSignal.timeout(timeoutMs) } : {}),
        });
      },
    },
    { origin: null },
  );
  browser.cookie = cookie;
  return browser;
}
