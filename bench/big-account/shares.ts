/**
 * Items other users share with the measured accounts, so their /shared lists that many: up to
 * SHARERS users each share their own small files and folders (made through the API, the grant signed
 * by the sharer as the browser does, e2e/support/sharing.ts).
 */
import { createAccount } from '@sealbox/crypto';
import { apiCreateFolder, apiLogin, apiUploadFile, ok, type ApiFolder, type ApiSession } from '../../e2e/support/files.ts';
import { apiShareWithUser, publicUser } from '../../e2e/support/sharing.ts';
import { pool, smallSize } from './tree.ts';

/** At most this many sharers; fewer for a handful of shares (each sign-in costs an argon2id). */
const SHARERS = 10;
const SHARES_PER_SHARER = 4;
const PASSWORD = 'correct horse battery';

/**
 * SHARERS signed-in users. An RSA-4096 key pair takes about a second to make, so they all
 * register with one account's material under their own names (the server's work is the same).
 */
async function sharers(baseUrl: string, count: number): Promise<ApiSession[]> {
  const { registration } = await createAccount(PASSWORD);
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const username = `sharer${i}x${Date.now() % 1e6}`;
      await ok(
        await fetch(`${baseUrl}/api/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ ...registration, username, email: null }),
        }),
        'register sharer',
      );
      return apiLogin(baseUrl, { username, password: PASSWORD });
    }),
  );
}

/** Each of `counts[r]` items shared with recipient r, spread over the sharers (alternately folders and files). */
export async function shareWith(baseUrl: string, recipients: ApiSession[], counts: number[]): Promise<void> {
  const from = await sharers(baseUrl, Math.min(SHARERS, Math.ceil(Math.max(...counts) / SHARES_PER_SHARER)));
  const jobs = recipients.flatMap((_, r) =>
    Array.from({ length: counts[r]! }, (_, i) => ({ r, i, sharer: from[i % from.length]! })),
  );
  const keys = await Promise.all(recipients.map((recipient) => publicUser(from[0]!, recipient.userId)));
  await pool(jobs, async ({ r, i, sharer }) => {
    const name = `shared ${r}-${String(i).padStart(4, '0')}`;
    const item: ApiFolder =
      i % 2 === 0
        ? await apiCreateFolder(sharer, null, name)
        : await apiUploadFile(sharer, null, `${name}.txt`, new Uint8Array(smallSize(i)).fill(7), 'text/plain');
    await apiShareWithUser(sharer, item, keys[r]!, false);
  });
}
