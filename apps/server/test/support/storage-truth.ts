/**
 * What the database and the blob store say about one user's storage, read from outside the
 * server: the kill -9 suites (files.crash*, faults/kill-points) compare it with what the server
 * answered. One reader per backend, so the SQLite and PostgreSQL suites check the same things.
 */
import { Database } from 'bun:sqlite';
import { S3Client } from 'bun';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type postgres from 'postgres';
import type { LocalS3 } from './s3rver.ts';

export interface DbTruth {
  used: number;
  reserved: number;
  /** Sum of the sizes of the user's stored parts, their versions' included. */
  stored: number;
  reservedByUploads: number;
  /** Every blob key a part row of an item or a version names (all users), sorted. */
  named: string[];
  /** The user's items, or every item with `allItems`. */
  items: Array<{ id: string; state: string }>;
}

export interface BlobTruth {
  /** Part blobs under their real names, sorted. */
  keys: string[];
  /** Unfinished writes left behind (none visible on S3). */
  temp: string[];
}

/** The user's stored parts: of their items, and of those items' versions (migration 018). */
const STORED = `select coalesce(sum(size), 0) as total from (
  select p.size from item_parts p join items i on i.id = p.item_id where i.owner_id = ?
  union all
  select vp.size from item_version_parts vp join item_versions v on v.id = vp.version_id
    join items i on i.id = v.item_id where i.owner_id = ?) stored`;
/** Every blob a row names: a part of an item or of a version. */
const NAMED = 'select blob_key from item_parts union all select blob_key from item_version_parts';
const RESERVED =
  'select coalesce(sum(u.reserved_remaining), 0) as total from uploads u join items i on i.id = u.item_id where i.owner_id = ?';

/** SQLite's file, read beside the running server (WAL allows a second reader). */
export function sqliteTruth(dataDir: string, userId: string, { allItems = false } = {}): DbTruth {
  const db = new Database(join(dataDir, 'sealbox.db'), { readonly: true });
  try {
    const user = db.query('select used_space, reserved_space from users where id = ?').get(userId) as {
      used_space: number;
      reserved_space: number;
    };
    // One parameter per `?`, each the user.
    const total = (query: string) =>
      (
        db.query(query).get(
          ...query
            .split('?')
            .slice(1)
            .map(() => userId),
        ) as { total: number }
      ).total;
    const named = (db.query(NAMED).all() as Array<{ blob_key: string }>).map((r) => r.blob_key);
    const items = (
      allItems
        ? db.query('select id, state from items').all()
        : db.query('select id, state from items where owner_id = ?').all(userId)
    ) as Array<{ id: string; state: string }>;
    return {
      used: user.used_space,
      reserved: user.reserved_space,
      stored: total(STORED),
      reservedByUploads: total(RESERVED),
      named: named.sort(),
      items,
    };
  } finally {
    db.close();
  }
}

/** The blob directory of DATA_DIR: part files in their shards, and its .tmp area. */
export async function diskBlobs(dataDir: string): Promise<BlobTruth> {
  const blobRoot = join(dataDir, 'blobs');
  const keys: string[] = [];
  for (const shard of await readdir(blobRoot).catch(() => [] as string[])) {
    if (shard === '.tmp') continue;
    for (const name of await readdir(join(blobRoot, shard))) if (name.startsWith('part-')) keys.push(name);
  }
  return { keys: keys.sort(), temp: await readdir(join(blobRoot, '.tmp')).catch(() => [] as string[]) };
}

/** PostgreSQL through postgres.js (BIGINT and sum() come back as strings). */
export async function postgresTruth(sql: postgres.Sql, userId: string, { allItems = false } = {}): Promise<DbTruth> {
  const [user] = await sql`select used_space, reserved_space from users where id = ${userId}`;
  const [stored] = await sql.unsafe(STORED.replaceAll('?', '$1'), [userId]);
  const [reserved] = await sql.unsafe(RESERVED.replace('?', '$1'), [userId]);
  const named = (await sql.unsafe<Array<{ blob_key: string }>>(NAMED)).map((r) => r.blob_key);
  const items = allItems
    ? await sql<Array<{ id: string; state: string }>>`select id, state from items`
    : await sql<Array<{ id: string; state: string }>>`select id, state from items where owner_id = ${userId}`;
  return {
    used: Number(user!.used_space),
    reserved: Number(user!.reserved_space),
    stored: Number(stored!.total),
    reservedByUploads: Number(reserved!.total),
    named: named.sort(),
    items: items.map((r) => ({ id: r.id, state: r.state })),
  };
}

/** A client of the local S3 server's bucket, as the server's own S3 settings make one. */
export function localS3Client(s3: LocalS3): S3Client {
  return new S3Client({
    endpoint: s3.endpoint,
    bucket: s3.bucket,
    region: 'us-east-1',
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
  });
}

/** Every part blob in the bucket, page by page (unfinished multipart uploads never show). */
export async function s3Blobs(client: S3Client): Promise<BlobTruth> {
  const keys: string[] = [];
  let continuationToken: string | undefined;
  do {
    const page = await client.list({ prefix: 'part-', ...(continuationToken ? { continuationToken } : {}) });
    for (const object of page.contents ?? []) keys.push(object.key);
    continuationToken = page.isTruncated ? page.nextContinuationToken : undefined;
  } while (continuationToken);
  return { keys: keys.sort(), temp: [] };
}
