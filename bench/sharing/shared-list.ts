/**
 * bench/sharing/shared-list.ts: GET /api/shared over many shares (issue 21, finding 5).
 * An owner shares N folders, each 5 levels deep (10 x 10 x 10 x 10 under one top folder, made
 * through the API with the real crypto), with one recipient, who walks the whole list page by
 * page (following nextOffset, or a short page on builds without it). Meanwhile another user
 * lists a folder of 20 items in a loop, and its latency is compared with the same calls idle.
 * One instance, SQLite + disk, on 127.0.0.1. The test of the same shape
 * (apps/server/test/sharing/listing-limits.suite.ts) asserts only the ratio; the figures are here.
 * Run: bun bench/sharing/shared-list.ts [--rounds=5] [--limit=1000] [--entry=path/to/main.ts] [--short]
 */
import { createAccount } from '@sealbox/crypto';
import { apiLogin, folderMetadata, type ApiSession } from '../../e2e/support/files.ts';
import { startServer, type RunningServer } from '../../e2e/support/server.ts';
import { apiShareWithUser, publicUser } from '../../e2e/support/sharing.ts';
import { numberArg, percentile, sized } from '../support.ts';

const ROUNDS = numberArg('rounds', sized(5, 1));
const LIMIT = numberArg('limit', sized(1000, 5));
/** Folders under each folder of the level above, four levels under the top one. */
const WIDTHS = sized([10, 10, 10, 10], [2, 2, 2, 2]);
const IDLE_CALLS = sized(200, 20);
const entry = process.argv.find((a) => a.startsWith('--entry='))?.slice('--entry='.length);

async function ok(response: Response, what: string): Promise<any> {
  if (!response.ok) throw new Error(`${what}: ${response.status} ${await response.text()}`);
  return response.status === 204 ? null : response.json();
}

/** `count` jobs, eight at a time. */
async function parallel(count: number, job: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < count) await job(next++);
    }),
  );
}

async function folder(server: RunningServer, session: ApiSession, parent: { id: string; key: Uint8Array } | null, name: string) {
  const { metadata, key } = await folderMetadata(parent ? parent.key : session.rootKey, parent?.id ?? null, name);
  const body = new FormData();
  body.set('metadata', JSON.stringify(metadata));
  await ok(await fetch(`${server.url}/api/upload`, { method: 'POST', headers: { cookie: session.cookie }, body }), 'folder');
  return { id: metadata.id as string, key };
}

const stats = (values: number[]) =>
  `p50 ${percentile(values, 50).toFixed(1)} ms  p95 ${percentile(values, 95).toFixed(1)} ms  max ${Math.max(...values).toFixed(1)} ms`;

const server = await startServer({ env: { RATE_LIMITS: 'off', LOG_LEVEL: 'warn' }, ...(entry ? { entry } : {}) });
try {
  const password = 'correct horse battery';
  const { registration } = await createAccount(password);
  const sessions: ApiSession[] = [];
  for (const role of ['owner', 'recipient', 'other']) {
    const username = `${role}${Date.now() % 1e7}`;
    await ok(
      await fetch(`${server.url}/api/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...registration, username, email: null }),
      }),
      'register',
    );
    sessions.push(await apiLogin(server.url, { username, password }));
  }
  const [owner, recipient, other] = sessions as [ApiSession, ApiSession, ApiSession];

  let started = performance.now();
  const top = await folder(server, owner, null, 'top');
  let level = [top];
  let made = 1;
  for (const width of WIDTHS) {
    const next: typeof level = [];
    const jobs = level.flatMap((parent) => Array.from({ length: width }, (_, i) => ({ parent, i })));
    await parallel(jobs.length, async (j) => {
      next.push(await folder(server, owner, jobs[j]!.parent, `f${jobs[j]!.i}`));
    });
    level = next;
    made += next.length;
  }
  console.log(
    `setup: ${made.toLocaleString('en-US')} folders (${level.length} of them 5 levels deep) made in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  started = performance.now();
  const recipientKeys = await publicUser(owner, recipient.userId);
  await parallel(level.length, async (i) => {
    await apiShareWithUser(owner, level[i]!, recipientKeys, false);
  });
  console.log(`setup: each shared with the recipient in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const busy = await folder(server, other, null, 'busy');
  for (let i = 0; i < 20; i++) await folder(server, other, busy, `b${i}`);

  const otherCall = async () => {
    const t0 = performance.now();
    await ok(await fetch(`${server.url}/api/file?id=${busy.id}`, { headers: { cookie: other.cookie } }), 'other');
    return performance.now() - t0;
  };
  const idle: number[] = [];
  for (let i = 0; i < IDLE_CALLS; i++) idle.push(await otherCall());

  const pages: number[] = [];
  const walks: number[] = [];
  const during: number[] = [];
  let walking = true;
  const poll = (async () => {
    while (walking) during.push(await otherCall());
  })();
  let listed = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const walkStarted = performance.now();
    listed = 0;
    for (let offset: number | null = 0; offset !== null; ) {
      const t0 = performance.now();
      const page = await ok(
        await fetch(`${server.url}/api/shared?limit=${LIMIT}&offset=${offset}`, { headers: { cookie: recipient.cookie } }),
        'shared',
      );
      pages.push(performance.now() - t0);
      listed += page.files.length;
      const next = page.nextOffset as number | null | undefined;
      offset = next !== undefined ? next : page.files.length < LIMIT ? null : offset + LIMIT;
    }
    walks.push(performance.now() - walkStarted);
  }
  walking = false;
  await poll;

  console.log(
    `\nGET /api/shared, ${listed} entries 5 levels deep, limit=${LIMIT}, ${ROUNDS} walks (SQLite, wall time incl. JSON parse)`,
  );
  console.log(`  one page:       ${stats(pages)}  (${pages.length} pages)`);
  console.log(`  whole list:     ${stats(walks)}`);
  console.log(`another user's GET /api/file (a folder of 20), ${idle.length} idle then ${during.length} during the walks`);
  console.log(`  idle:           ${stats(idle)}`);
  console.log(`  during walks:   ${stats(during)}`);
  console.log(`  median ratio during/idle: x${(percentile(during, 50) / percentile(idle, 50)).toFixed(1)}`);
} finally {
  await server.stop();
}
