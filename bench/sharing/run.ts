/**
 * bench/sharing: live updates through sharing (issue 12 targets).
 * Fan-out: a folder shared with U users (each with a live socket, as an open tab has); one change
 * inside it (a subfolder created by the owner) timed from the request to its arrival on every
 * socket, R rounds (target p95 <= 250 ms for 200 users). One instance, SQLite + disk.
 * The two browser figures of the issue are bench/sharing/link-open.ts (opening a link to a
 * folder of 10,000 items) and bench/sharing/share-to-live.ts (share → the recipient's /shared).
 * GET /api/shared over 10,000 shares, and what it costs other users: bench/sharing/shared-list.ts.
 * Run: bun bench/sharing/run.ts [--users=200] [--rounds=20] [--short]
 */
import { createAccount, deriveLoginPassword, signGrant, wrapKeyForUser } from '@sealbox/crypto';
import { apiLogin, folderMetadata, type ApiSession } from '../../e2e/support/files.ts';
import { startServer, type RunningServer } from '../../e2e/support/server.ts';
import { now, numberArg, openListener, percentile, settle, sized, waitUntil, type Listener } from '../support.ts';

const USERS = numberArg('users', sized(200, 5));
const ROUNDS = numberArg('rounds', sized(20, 2));

async function ok(response: Response, what: string): Promise<any> {
  if (!response.ok) throw new Error(`${what}: ${response.status} ${await response.text()}`);
  return response.status === 204 ? null : response.json();
}

const post = (server: RunningServer, path: string, body: unknown, cookie?: string) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });

/**
 * U recipients, signed in. An RSA-4096 key pair takes about a second to make, so every recipient
 * registers with one account's material under its own name (the server's work per user is the same).
 */
async function recipients(server: RunningServer): Promise<Array<{ id: string; cookie: string; publicKey: string }>> {
  const password = 'correct horse battery';
  const { registration } = await createAccount(password);
  const hash = await deriveLoginPassword(password, registration.passwordSalt, registration.kdf);
  const users: Array<{ id: string; cookie: string; publicKey: string }> = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < USERS) {
        const username = `r${next++}x${Date.now() % 1e6}`;
        const { id } = await ok(await post(server, '/api/register', { ...registration, username, email: null }), 'register');
        const login = await post(server, '/api/login', { username, password: hash });
        await ok(login, 'login');
        users.push({ id, cookie: login.headers.getSetCookie()[0]!.split(';')[0]!, publicKey: registration.publicKey });
      }
    }),
  );
  return users;
}

/** The owner's grant to each recipient: K wrapped to the recipient's key, signed by the owner. */
async function shareFolder(
  server: RunningServer,
  owner: ApiSession & { signingKey: CryptoKey },
  folder: { id: string; key: Uint8Array },
  users: Array<{ id: string; publicKey: string }>,
) {
  for (const user of users) {
    const encryptedKey = await wrapKeyForUser(user.publicKey, folder.key);
    const grant = { sharerId: owner.userId, recipientId: user.id, itemId: folder.id, encryptedKey, edit: false };
    const signature = await signGrant(owner.signingKey, grant);
    await ok(
      await post(
        server,
        '/api/share',
        { type: 'user', id: folder.id, userId: user.id, encryptedKey, edit: false, signature },
        owner.cookie,
      ),
      'share',
    );
  }
}

const server = await startServer({ env: { RATE_LIMITS: 'off', LOG_LEVEL: 'warn' } });
try {
  const ownerAccount = 'correct horse battery';
  const ownerName = `owner${Date.now() % 1e6}`;
  const { registration, keys } = await createAccount(ownerAccount);
  await ok(await post(server, '/api/register', { ...registration, username: ownerName, email: null }), 'register owner');
  const owner = {
    ...(await apiLogin(server.url, { username: ownerName, password: ownerAccount })),
    signingKey: keys.signingPrivateKey,
  };
  const made = await folderMetadata(owner.rootKey, null, 'Shared with everyone');
  const form = new FormData();
  form.set('metadata', JSON.stringify(made.metadata));
  await ok(await fetch(`${server.url}/api/upload`, { method: 'POST', headers: { cookie: owner.cookie }, body: form }), 'folder');
  const folder = { id: made.metadata.id, key: made.key };

  let started = performance.now();
  const users = await recipients(server);
  console.log(`setup: ${users.length} recipients signed in in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  started = performance.now();
  await shareFolder(server, owner, folder, users);
  console.log(`setup: folder shared with each in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const listeners: Listener[] = [];
  for (let i = 0; i < users.length; i += 50)
    listeners.push(...(await Promise.all(users.slice(i, i + 50).map((u) => openListener(server, u.cookie)))));
  await settle(1000);

  const delays: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const { metadata } = await folderMetadata(folder.key, folder.id, `change ${round}`);
    const body = new FormData();
    body.set('metadata', JSON.stringify(metadata));
    const t0 = now();
    await ok(await fetch(`${server.url}/api/upload`, { method: 'POST', headers: { cookie: owner.cookie }, body }), 'change');
    await waitUntil(() => listeners.every((l) => l.arrivals.has(metadata.id)), 10_000, 'every recipient');
    for (const l of listeners) delays.push(l.arrivals.get(metadata.id)! - t0);
    await settle(100);
  }
  const p95 = percentile(delays, 95);
  console.log(
    `one change inside a folder shared with ${users.length} users (one open socket each), ${ROUNDS} rounds: ` +
      `p50 ${percentile(delays, 50).toFixed(1)} ms  p95 ${p95.toFixed(1)} ms  max ${Math.max(...delays).toFixed(1)} ms  ` +
      `target p95 <= 250 ms: ${p95 <= 250 ? 'met' : 'NOT met'}`,
  );
  for (const l of listeners) l.socket.close();
} finally {
  await server.stop();
}
