import { sql, type ExpressionBuilder, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { Database } from '../../../ports/db.ts';
import type { ItemsTable } from '../../../ports/db-schema.ts';
import {
  ancestorChain,
  byListingOrder,
  type ItemChanges,
  type ItemRecord,
  type ItemsReader,
  type ItemsSweep,
  type ItemState,
  type ItemsWriter,
} from '../../../ports/files/items.ts';
import { chunks, inChunks } from './in-chunks.ts';
import type { TreeChanges } from './tree-version-store.ts';

/** Everything an ItemRecord holds; blob_key stays in the database (only uploads read it). */
const ITEM_COLUMNS = [
  'id',
  'parent_id',
  'owner_id',
  'uploader_id',
  'uploader_anonymous',
  'is_directory',
  'encrypted_file_name',
  'name_nonce',
  'encrypted_mime_type',
  'mime_type_nonce',
  'encrypted_key',
  'key_nonce',
  'file_nonce',
  'size',
  'state',
  'created_at',
  'modified_at',
  'deleting_since',
  'trashed_at',
  'trashed_by',
] as const;

type ItemColumn = (typeof ITEM_COLUMNS)[number];
type ItemRow = Pick<Selectable<ItemsTable>, ItemColumn>;

/** What a one-folder listing with a state filter reads: it knows the other three already. */
type ListedColumn = Exclude<ItemColumn, 'parent_id' | 'state' | 'deleting_since' | 'trashed_at' | 'trashed_by'>;
const LISTED_COLUMNS = ITEM_COLUMNS.filter(
  (c): c is ListedColumn =>
    c !== 'parent_id' && c !== 'state' && c !== 'deleting_since' && c !== 'trashed_at' && c !== 'trashed_by',
);

/**
 * 'deleting' and 'trashed' are stored as deleting_since and trashed_at (items.state keeps its two
 * values: SQLite cannot change a CHECK in place); deleting wins over trashed, and the stored
 * states also ask for both to be unset.
 */
function inState(state: ItemState) {
  return (eb: ExpressionBuilder<Database, 'items'>) => {
    if (state === 'deleting') return eb('deleting_since', 'is not', null);
    if (state === 'trashed') return eb.and([eb('trashed_at', 'is not', null), eb('deleting_since', 'is', null)]);
    return eb.and([eb('state', '=', state), eb('deleting_since', 'is', null), eb('trashed_at', 'is', null)]);
  };
}

export function itemsReader(k: Kysely<Database>): ItemsReader {
  return {
    async item(id) {
      const row = await k.selectFrom('items').select(ITEM_COLUMNS).where('id', '=', id).executeTakeFirst();
      return row && toItem(row);
    },
    async items(ids) {
      const rows = await inChunks(ids, (chunk) => k.selectFrom('items').select(ITEM_COLUMNS).where('id', 'in', chunk).execute());
      return rows.map(toItem);
    },
    async children(parentIds, options = {}) {
      if (options.page && parentIds.length !== 1) throw new Error('a page applies to one folder only');
      const { state, page } = options;
      // One folder with a state (the browser's whole-folder load, 10,000+ rows): parent and state
      // are known and not read, since turning string columns into JS strings is most of the read.
      const known = parentIds.length === 1 && state ? { parentId: parentIds[0]!, state } : undefined;
      const lists: ItemRecord[][] = [];
      for (const chunk of chunks(parentIds)) {
        let query = k
          .selectFrom('items')
          .select(known ? LISTED_COLUMNS : ITEM_COLUMNS)
          .where('parent_id', 'in', chunk);
        if (state) query = query.where(inState(state));
        query = query.orderBy('created_at').orderBy('id');
        if (page) query = query.limit(page.limit).offset(page.offset);
        const rows = await query.execute();
        lists.push(known ? rows.map((row) => toItemIn(row, known.parentId, known.state)) : (rows as ItemRow[]).map(toItem));
      }
      // Chunks are each ordered; the whole list must be too.
      return lists.length === 1 ? lists[0]! : lists.flat().sort(byListingOrder);
    },
    async childIds(parentId, options = {}) {
      let query = k.selectFrom('items').select('id').where('parent_id', '=', parentId);
      if (options.state) query = query.where(inState(options.state));
      return (await query.orderBy('created_at').orderBy('id').execute()).map((row) => row.id);
    },
    async topLevel(ownerId, options = {}) {
      let query = k.selectFrom('items').select(ITEM_COLUMNS).where('owner_id', '=', ownerId).where('parent_id', 'is', null);
      if (options.state) query = query.where(inState(options.state));
      query = query.orderBy('created_at').orderBy('id');
      if (options.page) query = query.limit(options.page.limit).offset(options.page.offset);
      return (await query.execute()).map(toItem);
    },
    async ownReadyPage(ownerId, after, limit) {
      // The (owner_id, state, created_at, id) index walks it: each page is one range scan.
      let query = k.selectFrom('items').select(ITEM_COLUMNS).where('owner_id', '=', ownerId).where(inState('ready'));
      if (after) query = query.where((eb) => eb(eb.refTuple('created_at', 'id'), '>', eb.tuple(after.createdAt, after.id)));
      const rows = await query.orderBy('created_at').orderBy('id').limit(limit).execute();
      return rows.map((row) => toItemIn(row, row.parent_id, 'ready'));
    },
    async ownReadyCount(ownerId) {
      const row = await k
        .selectFrom('items')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('owner_id', '=', ownerId)
        .where(inState('ready'))
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    async foldersWithChildren(folderIds) {
      const rows = await inChunks(folderIds, (chunk) =>
        k.selectFrom('items').select('parent_id').distinct().where('parent_id', 'in', chunk).execute(),
      );
      return new Set(rows.map((row) => row.parent_id!));
    },
    async trashOf(ownerId, page) {
      const rows = await k
        .selectFrom('items')
        .select(ITEM_COLUMNS)
        .where('owner_id', '=', ownerId)
        .where(inState('trashed'))
        .orderBy('trashed_at', 'desc')
        .orderBy('id')
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      return rows.map(toItem);
    },
    async trashBytes(ownerId) {
      // `union`, not `union all`: a trashed item inside a trashed folder is counted once.
      const { rows } = await sql<{ bytes: number | string | null }>`
        with recursive trashed(id) as (
          select id from items where owner_id = ${ownerId} and trashed_at is not null and deleting_since is null
          union
          select items.id from items join trashed on items.parent_id = trashed.id
        )
        select
          (select coalesce(sum(item_parts.size), 0) from item_parts join trashed on item_parts.item_id = trashed.id)
          -- Their earlier versions too (migration 018): stored, and counted, as long as they are.
          + (select coalesce(sum(item_version_parts.size), 0) from item_version_parts
              join item_versions on item_versions.id = item_version_parts.version_id
              join trashed on item_versions.item_id = trashed.id) as bytes`.execute(k);
      return Number(rows[0]?.bytes ?? 0);
    },
    async someChildren(parentId, limit) {
      const rows = await k.selectFrom('items').select(ITEM_COLUMNS).where('parent_id', '=', parentId).limit(limit).execute();
      return rows.map(toItem);
    },
    async subtreeHeight(id, atMost) {
      // Only folders are walked; a folder's height is its level, plus one if anything is in it.
      // Files are never enumerated, so a folder of a million files costs one probe.
      const { rows } = await sql<{ height: number | string | null }>`
        with recursive sub(id, level) as (
          select id, 1 from items where id = ${id} and is_directory = 1
          union all
          select items.id, sub.level + 1 from items join sub on items.parent_id = sub.id
          where items.is_directory = 1 and sub.level <= ${atMost}
        )
        select max(level + case when exists (select 1 from items c where c.parent_id = sub.id) then 1 else 0 end) as height
        from sub`.execute(k);
      const height = rows[0]?.height;
      return Math.min(height === null || height === undefined ? 1 : Number(height), atMost + 1);
    },
    async ancestors(start) {
      const byId = new Map((await ancestorRows(k, [start.id])).map((row) => [row.id, toItem(row)]));
      // No cap: the move check relies on the whole chain (a capped walk let a move close a cycle).
      return ancestorChain(start, byId);
    },
    async ancestorsOf(items) {
      const out = new Map<string, ItemRecord>();
      for (const chunk of chunks([...new Set(items.map((item) => item.id))])) {
        for (const row of await ancestorRows(k, chunk)) if (!out.has(row.id)) out.set(row.id, toItem(row));
      }
      return [...out.values()];
    },
  };
}

/**
 * The ancestors of these items in one recursive query whatever the depth (a walk of one query
 * per level let a deep chain cost thousands of round trips). UNION, not UNION ALL: a cycle in
 * the data ends the recursion instead of looping.
 */
function ancestorRows(k: Kysely<Database>, ids: readonly string[]): Promise<ItemRow[]> {
  return k
    .withRecursive('chain(id)', (db) =>
      db
        .selectFrom('items')
        .select('parent_id as id')
        .where('id', 'in', ids)
        .union(db.selectFrom('items').innerJoin('chain', 'chain.id', 'items.id').select('items.parent_id as id')),
    )
    .selectFrom('items')
    .select(ITEM_COLUMNS)
    .where('id', 'in', (eb) => eb.selectFrom('chain').select('chain.id').where('chain.id', 'is not', null))
    .execute();
}

/** The owner and folder of one row a write changed (what `tree` is told). */
type Placed = { owner_id: string; parent_id: string | null };

/** Every write tells `tree` whose items under which folders changed (tree-version-store.ts). */
export function itemsWriter(k: Kysely<Database>, tree: TreeChanges): ItemsWriter {
  const told = async (rows: Placed[], alsoUnder?: string | null) => {
    for (const row of rows)
      await tree.changed(row.owner_id, alsoUnder === undefined ? [row.parent_id] : [row.parent_id, alsoUnder]);
  };
  const placed = ['owner_id', 'parent_id'] as const;
  /** One item's state marks set, and `tree` told. */
  const markOne = async (id: string, marks: Pick<Updateable<ItemsTable>, 'trashed_at' | 'trashed_by' | 'deleting_since'>) => {
    await k.updateTable('items').set(marks).where('id', '=', id).returning(placed).execute().then(told);
  };
  return {
    async insertItem(item) {
      await k
        .insertInto('items')
        .values({
          id: item.id,
          parent_id: item.parentId,
          owner_id: item.ownerId,
          // Older builds read uploader_id as a user: an anonymous holder's row names the owner there.
          uploader_id: item.uploaderId ?? item.ownerId,
          uploader_anonymous: item.uploaderId === null ? 1 : 0,
          is_directory: item.isDirectory ? 1 : 0,
          encrypted_file_name: item.encryptedFileName,
          name_nonce: item.nameNonce,
          encrypted_mime_type: item.encryptedMimeType,
          mime_type_nonce: item.mimeTypeNonce,
          encrypted_key: item.encryptedKey,
          key_nonce: item.keyNonce,
          file_nonce: item.fileNonce,
          size: item.size,
          blob_key: null,
          state: item.state,
          created_at: item.createdAt,
          modified_at: item.modifiedAt,
        })
        .execute();
      await countItems(k, item.ownerId, 1);
      await tree.changed(item.ownerId, [item.parentId]);
    },
    async updateItem(id, changes: ItemChanges) {
      const values: Record<string, unknown> = {};
      if (changes.parentId !== undefined) values.parent_id = changes.parentId;
      if (changes.encryptedFileName !== undefined) values.encrypted_file_name = changes.encryptedFileName;
      if (changes.nameNonce !== undefined) values.name_nonce = changes.nameNonce;
      if (changes.encryptedKey !== undefined) values.encrypted_key = changes.encryptedKey;
      if (changes.keyNonce !== undefined) values.key_nonce = changes.keyNonce;
      if (changes.state !== undefined) values.state = changes.state;
      if (changes.modifiedAt !== undefined) values.modified_at = changes.modifiedAt;
      if (Object.keys(values).length === 0) return;
      // The folder it leaves as well as the one it lands in, for a move.
      const before = await k.selectFrom('items').select(placed).where('id', '=', id).execute();
      await k.updateTable('items').set(values).where('id', '=', id).execute();
      await told(before, changes.parentId);
    },
    async replaceContent(item, content) {
      await k
        .updateTable('items')
        .set({
          size: content.size,
          file_nonce: content.fileNonce,
          encrypted_mime_type: content.encryptedMimeType,
          mime_type_nonce: content.mimeTypeNonce,
          // As insertItem writes them: older builds read uploader_id as a user.
          uploader_id: content.uploaderId ?? item.ownerId,
          uploader_anonymous: content.uploaderId === null ? 1 : 0,
          modified_at: content.modifiedAt,
        })
        .where('id', '=', item.id)
        .returning(placed)
        .execute()
        .then(told);
    },
    markTrashed: (id, at, by) => markOne(id, { trashed_at: at, trashed_by: by }),
    clearTrashed: (id) => markOne(id, { trashed_at: null, trashed_by: null }),
    markDeleting: (id, at) => markOne(id, { deleting_since: at }),
    async deleteItems(ids) {
      const removed = new Map<string, number>();
      const folders = new Map<string, Set<string | null>>();
      for (const chunk of chunks(ids)) {
        const rows = await k.deleteFrom('items').where('id', 'in', chunk).returning(placed).execute();
        for (const { owner_id, parent_id } of rows) {
          removed.set(owner_id, (removed.get(owner_id) ?? 0) + 1);
          folders.set(owner_id, (folders.get(owner_id) ?? new Set()).add(parent_id));
        }
      }
      for (const [ownerId, count] of removed) await countItems(k, ownerId, -count);
      for (const [ownerId, parents] of folders) await tree.changed(ownerId, [...parents]);
    },
  };
}

/**
 * users.item_count follows every insert and delete of items, in the same transaction (the quota
 * port reads it; docs/operations.md "Files: limits and large deletes").
 */
async function countItems(k: Kysely<Database>, ownerId: string, delta: number): Promise<void> {
  await k
    .updateTable('users')
    .set((eb) => ({ item_count: eb('item_count', '+', delta) }))
    .where('id', '=', ownerId)
    .execute();
}

export function itemsSweep(k: Kysely<Database>): ItemsSweep {
  return {
    async deletesInProgress(limit) {
      const rows = await k
        .selectFrom('items')
        .select(ITEM_COLUMNS)
        .where('deleting_since', 'is not', null)
        .orderBy('deleting_since')
        .limit(limit)
        .execute();
      return rows.map(toItem);
    },
    async trashedBefore(before, limit) {
      const rows = await k
        .selectFrom('items')
        .select(ITEM_COLUMNS)
        .where('trashed_at', '<=', before)
        .where('deleting_since', 'is', null)
        .orderBy('trashed_at')
        .limit(limit)
        .execute();
      return rows.map(toItem);
    },
  };
}

function toItem(row: ItemRow): ItemRecord {
  const state = row.deleting_since !== null ? 'deleting' : row.trashed_at !== null ? 'trashed' : row.state;
  const item = toItemIn(row, row.parent_id, state);
  return row.trashed_at === null ? item : { ...item, trashedAt: Number(row.trashed_at), trashedBy: row.trashed_by };
}

function toItemIn(row: Pick<Selectable<ItemsTable>, ListedColumn>, parentId: string | null, state: ItemState): ItemRecord {
  return {
    id: row.id,
    parentId,
    ownerId: row.owner_id,
    uploaderId: row.uploader_anonymous === 1 ? null : row.uploader_id,
    isDirectory: row.is_directory === 1,
    encryptedFileName: row.encrypted_file_name,
    nameNonce: row.name_nonce,
    encryptedMimeType: row.encrypted_mime_type,
    mimeTypeNonce: row.mime_type_nonce,
    encryptedKey: row.encrypted_key,
    keyNonce: row.key_nonce,
    fileNonce: row.file_nonce,
    size: Number(row.size),
    state,
    createdAt: Number(row.created_at),
    modifiedAt: Number(row.modified_at),
  };
}
