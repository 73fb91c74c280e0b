/**
 * After the mix: every file downloaded whole, decrypted and compared with what was uploaded, and
 * the database read for usedSpace against the bytes stored and blobs against rows.
 */
import { Database } from 'bun:sqlite';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createDecryptStream } from '@sealbox/crypto';
import { plain } from './content.ts';
import type { SoakUser } from './users.ts';

export interface FileCheck {
  files: number;
  lost: number;
  corrupted: number;
}

export interface StorageCheck {
  /** Users whose usedSpace is not the bytes they store. */
  quotaOff: number;
  /** Blobs without a row. */
  orphans: number;
  /** Rows without a blob. */
  missing: number;
}

/** Every file back, whole, decrypted and compared. */
export async function checkFiles(baseUrl: string, users: SoakUser[]): Promise<FileCheck> {
  let files = 0;
  let lost = 0;
  let corrupted = 0;
  for (const user of users) {
    for (const file of user.files) {
      files += 1;
      const response = await fetch(`${baseUrl}/api/file/data/${file.id}`, { headers: { cookie: user.session.cookie } });
      if (response.status !== 200) {
        lost += 1;
        await response.arrayBuffer();
        continue;
      }
      try {
        const out = await new Response(response.body!.pipeThrough(createDecryptStream(file.key, file.nonce))).arrayBuffer();
        if (Buffer.compare(new Uint8Array(out), plain(file.seed, 0, file.size)) !== 0) corrupted += 1;
      } catch {
        corrupted += 1;
      }
    }
  }
  return { files, lost, corrupted };
}

/** The database's word on quotas and blobs, read beside the server (WAL). */
export function checkStorage(dataDir: string): StorageCheck {
  const db = new Database(join(dataDir, 'sealbox.db'), { readonly: true });
  const quotaOff = db
    .query(
      `select count(*) as n from users u where u.used_space != (select coalesce(sum(p.size), 0) from item_parts p join items i on i.id = p.item_id where i.owner_id = u.id)`,
    )
    .get() as { n: number };
  const named = new Set(
    (db.query('select blob_key from item_parts').all() as Array<{ blob_key: string }>).map((r) => r.blob_key),
  );
  db.close();
  const blobRoot = join(dataDir, 'blobs');
  let orphans = 0;
  let missing = named.size;
  for (const shard of readdirSync(blobRoot)) {
    if (shard === '.tmp') continue;
    for (const key of readdirSync(join(blobRoot, shard))) {
      if (named.has(key)) missing -= 1;
      else orphans += 1;
    }
  }
  return { quotaOff: quotaOff.n, orphans, missing };
}
