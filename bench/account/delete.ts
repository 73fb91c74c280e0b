/**
 * bench/account/delete: deleting an account of 10,000 items while another user keeps working
 * (docs/benchmarks.md "bench/account/delete"). The account is made through the real API with the
 * real crypto: 100 folders of 99 folders each, and 50 small files with blobs. A bystander lists a
 * folder of 100 items over and over, one call after the other: first with nothing else going on
 * (the idle baseline), then from the delete's click until the account's last item is gone. Both in
 * the same run, on the same server (SQLite + local disk, the embedded default).
 * Printed per run: the delete's answer (the one transaction that ends the account), the whole
 * removal, and the bystander's p50/p95 idle and during, with their ratio.
 * Goal (issue 24): other users' calls stay fast: p95 during at most 5x the idle p95 (a call may
 * wait for one batch's transaction, a few milliseconds, where idle it takes one or two).
 * Run: bun bench/account/delete.ts [--runs=3] [--folders=100] [--per-folder=99] [--files=50] [--short]
 */
import { Database } from 'bun:sqlite';
import { join } from 'node:path';
import { deriveLoginPassword, type KdfParams } from '@sealbox/crypto';
import { createUser } from '../../e2e/support/accounts.ts';
import { apiCreateFolder, apiCreateFolders, apiLogin, apiUploadFile, ok, type ApiSession } from '../../e2e/support/files.ts';
import { startServer } from '../../e2e/support/server.ts';
import { bystanderListing, numberArg, percentile, sized } from '../support.ts';

const RUNS = numberArg('runs', sized(3, 1));
const FOLDERS = numberArg('folders', sized(100, 5));
const PER_FOLDER = numberArg('per-folder', sized(99, 9));
const FILES = numberArg('files', sized(50, 3));
const IDLE_CALLS = numberArg('idle-calls', sized(400, 20));
const GOAL_RATIO = 5;

const fmt = (ms: number) => `${ms.toFixed(1).padStart(7)} ms`;

/** A user with `folders` x `perFolder` folders and `files` small files at the top: their count. */
async function seed(baseUrl: string, username: string): Promise<{ session: ApiSession; password: string; items: number }> {
  const user = await createUser(baseUrl, { username });
  const session = await apiLogin(baseUrl, user);
  const tops = await apiCreateFolders(
    session,
    null,
    Array.from({ length: FOLDERS }, (_, i) => `top ${i}`),
    32,
  );
  for (const top of tops) {
    await apiCreateFolders(
      session,
      top,
      Array.from({ length: PER_FOLDER }, (_, i) => `sub ${i}`),
      32,
    );
  }
  const photos = await apiCreateFolder(session, null, 'photos');
  for (let i = 0; i < FILES; i++) {
    await apiUploadFile(session, photos, `photo ${i}.jpg`, crypto.getRandomValues(new Uint8Array(20_000)), 'image/jpeg');
  }
  const lookup = await ok(await fetch(`${baseUrl}/api/users/search/${username}?limit=1`), 'lookup');
  const password = await deriveLoginPassword(user.password, lookup[0].passwordSalt, lookup[0].kdf as KdfParams);
  return { session, password, items: FOLDERS * (1 + PER_FOLDER) + 1 + FILES };
}

async function main() {
  const server = await startServer({ env: { RATE_LIMITS: 'off', LOG_LEVEL: 'warn' } });
  const db = new Database(join(server.dataDir, 'sealbox.db'), { readonly: true });
  const ownedBy = db.query<{ n: number }, [string]>('select count(*) as n from items where owner_id = ?');
  try {
    const list = await bystanderListing(server.url, 'bystander');

    const rows: string[] = [];
    const ratios: number[] = [];
    for (let run = 1; run <= RUNS; run++) {
      const username = `victim${run}`;
      const started = performance.now();
      const victim = await seed(server.url, username);
      console.log(
        `run ${run}: ${victim.items} items made through the API in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
      if (ownedBy.get(victim.session.userId)!.n !== victim.items) throw new Error('seeding missed items');

      const idle: number[] = [];
      for (let i = 0; i < IDLE_CALLS; i++) idle.push(await list());

      const during: number[] = [];
      const t0 = performance.now();
      let gone = 0;
      const deletion = fetch(`${server.url}/api/account/delete`, {
        method: 'POST',
        headers: { cookie: victim.session.cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ password: victim.password, confirm: username }),
      }).then(async (response) => {
        if (response.status !== 204) throw new Error(`delete: ${response.status} ${await response.text()}`);
        return performance.now() - t0;
      });
      let answered: number | undefined;
      void deletion.then((ms) => {
        answered = ms;
      });
      while (gone === 0) {
        during.push(await list());
        if (ownedBy.get(victim.session.userId)!.n === 0) gone = performance.now() - t0;
      }
      const answerMs = answered ?? (await deletion);
      const ratio = percentile(during, 95) / percentile(idle, 95);
      ratios.push(ratio);
      rows.push(
        `run ${run}: answer ${fmt(answerMs)}, all ${victim.items} items gone ${fmt(gone)} | bystander listing (100 items) ` +
          `idle p50 ${fmt(percentile(idle, 50))} p95 ${fmt(percentile(idle, 95))} (${idle.length} calls), during p50 ` +
          `${fmt(percentile(during, 50))} p95 ${fmt(percentile(during, 95))} max ${fmt(Math.max(...during))} ` +
          `(${during.length} calls) | p95 ratio ${ratio.toFixed(2)}`,
      );
      console.log(rows.at(-1));
    }
    const worst = Math.max(...ratios);
    console.log(`\n${rows.join('\n')}`);
    console.log(
      `\nbystander p95 during / idle: worst ${worst.toFixed(2)} (goal <= ${GOAL_RATIO}) -> ${worst <= GOAL_RATIO ? 'MET' : 'NOT MET'}`,
    );
  } finally {
    db.close();
    await server.stop();
  }
}

await main();
