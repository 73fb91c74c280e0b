import { sql, type ExpressionBuilder, type Kysely, type Selectable } from 'kysely';
import type { Database, Db, SqlDialect } from '../../../ports/db.ts';
import type { AccessesTable, ItemPartsTable, ItemsTable, LinksTable, UploadsTable } from '../../../ports/db-schema.ts';
import type {
  AccessRecord,
  FilesReader,
  FilesStore,
  FilesTransaction,
  ItemChanges,
  ItemRecord,
  ItemState,
  LinkRecord,
  PartRecord,
  QuotaRecord,
  UploadRecord,
} from '../../../ports/files.ts';
import { ancestorChain, byListingOrder } from '../../../ports/files.ts';

/** Keeps every IN (...) list far below SQLite's and PostgreSQL's bound-parameter limits. */
const IN_CHUNK = 500;

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
] as const;

type ItemColumn = (typeof ITEM_COLUMNS)[number];
type ItemRow = Pick<Selectable<ItemsTable>, ItemColumn>;

/** What a one-folder listing with a state filter reads: it knows the other three already. */
type ListedColumn = Exclude<ItemColumn, 'parent_id' | 'state' | 'deleting_since'>;
const LISTED_COLUMNS = ITEM_COLUMNS.filter(
  (c): c is ListedColumn => c !== 'parent_id' && c !== 'state' && c !== 'deleting_since',
);

/**
 * 'deleting' is stored as deleting_since (items.state keeps its two values: SQLite cannot change
 * a CHECK in place), so the other states also ask for deleting_since to be unset.
 */
function inState(state: ItemState) {
  return (eb: ExpressionBuilder<Database, 'items'>) =>
    state === 'deleting'
      ? eb('deleting_since', 'is not', null)
      : eb.and([eb('state', '=', state), eb('deleting_since', 'is', null)]);
}

const QUOTA_COLUMNS = ['id', 'used_space', 'reserved_space', 'total_space', 'item_count'] as const;

/** The files domain's storage over either dialect. */
export function createFilesStore(db: Db): FilesStore {
  return {
    ...reader(db.kysely),
    transaction(fn) {
      return db.transaction((tx) => fn(transactionOf(tx.kysely, db.dialect, tx.publish, tx.afterCommit)));
    },
    async expiredUploads(now, limit) {
      const rows = await db.kysely
        .selectFrom('uploads')
        .selectAll()
        .where('expires_at', '<=', now)
        .orderBy('expires_at')
        .limit(limit)
        .execute();
      return rows.map(toUpload);
    },
    async expiredLinks(now, limit) {
      const rows = await db.kysely
        .selectFrom('links')
        .selectAll()
        .where('expires_at', 'is not', null)
        .where('expires_at', '<=', now)
        .orderBy('expires_at')
        .limit(limit)
        .execute();
      return rows.map(toLink);
    },
    async namedBlobKeys(keys) {
      const named = new Set<string>();
      for (const chunk of chunks(keys)) {
        const rows = await db.kysely.selectFrom('item_parts').select('blob_key').where('blob_key', 'in', chunk).execute();
        for (const row of rows) named.add(row.blob_key);
      }
      return named;
    },
    async deletesInProgress(limit) {
      const rows = await db.kysely
        .selectFrom('items')
        .select(ITEM_COLUMNS)
        .where('deleting_since', 'is not', null)
        .orderBy('deleting_since')
        .limit(limit)
        .execute();
      return rows.map(toItem);
    },
  };
}

function reader(k: Kysely<Database>): FilesReader {
  const item = async (id: string) => {
    const row = await k.selectFrom('items').select(ITEM_COLUMNS).where('id', '=', id).executeTakeFirst();
    return row && toItem(row);
  };
  const itemsById = async (ids: readonly string[]) => {
    const out: ItemRecord[] = [];
    for (const chunk of chunks([...new Set(ids)])) {
      out.push(...(await k.selectFrom('items').select(ITEM_COLUMNS).where('id', 'in', chunk).execute()).map(toItem));
    }
    return out;
  };
  return {
    item,
    items: itemsById,
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
    async parts(itemId) {
      const rows = await k.selectFrom('item_parts').selectAll().where('item_id', '=', itemId).orderBy('n').execute();
      return rows.map(toPart);
    },
    async upload(id) {
      const row = await k.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toUpload(row);
    },
    async unfinishedBytes(by) {
      const row =
        'linkId' in by
          ? await k
              .selectFrom('uploads')
              .select((eb) => eb.fn.sum<number | string | null>('size').as('total'))
              .where('link_id', '=', by.linkId)
              .executeTakeFirst()
          : await k
              .selectFrom('uploads')
              .innerJoin('items', 'items.id', 'uploads.item_id')
              .select((eb) => eb.fn.sum<number | string | null>('uploads.size').as('total'))
              .where('uploads.user_id', '=', by.uploaderId)
              .where('items.owner_id', '=', by.ownerId)
              // An anonymous holder's row names the owner, never this uploader; said for clarity.
              .where((eb) => eb.or([eb('uploads.anonymous', 'is', null), eb('uploads.anonymous', '=', 0)]))
              .executeTakeFirst();
      return Number(row?.total ?? 0);
    },
    async uploadsVia(linkId) {
      return (await k.selectFrom('uploads').selectAll().where('link_id', '=', linkId).execute()).map(toUpload);
    },
    async uploadsBy(uploaderId, ownerId) {
      const rows = await k
        .selectFrom('uploads')
        .innerJoin('items', 'items.id', 'uploads.item_id')
        .selectAll('uploads')
        .where('uploads.user_id', '=', uploaderId)
        .where('uploads.link_id', 'is', null)
        .where('items.owner_id', '=', ownerId)
        .execute();
      return rows.map(toUpload);
    },
    async unfinishedIn(ownerId, page) {
      const rows = await k
        .selectFrom('uploads')
        .innerJoin('items', 'items.id', 'uploads.item_id')
        .selectAll('uploads')
        .where('items.owner_id', '=', ownerId)
        .orderBy('uploads.created_at', 'desc')
        .orderBy('uploads.id')
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      const items = new Map((await itemsById(rows.map((row) => row.item_id))).map((item) => [item.id, item]));
      return rows.flatMap((row) => {
        const item = items.get(row.item_id);
        return item ? [{ upload: toUpload(row), item }] : [];
      });
    },
    async unfinishedCount(ownerId) {
      const row = await k
        .selectFrom('uploads')
        .innerJoin('items', 'items.id', 'uploads.item_id')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('items.owner_id', '=', ownerId)
        .executeTakeFirst();
      return Number(row?.count ?? 0);
    },
    async quota(userId) {
      const row = await k.selectFrom('users').select(QUOTA_COLUMNS).where('id', '=', userId).executeTakeFirst();
      return row && toQuota(row);
    },
    async userSummaries(ids) {
      const out = [];
      for (const chunk of chunks([...new Set(ids)])) {
        const rows = await k
          .selectFrom('users')
          .select(['id', 'username', 'avatar_extension'])
          .where('id', 'in', chunk)
          .execute();
        out.push(...rows.map((r) => ({ id: r.id, username: r.username, avatarExtension: r.avatar_extension })));
      }
      return out;
    },
    async publicUsers(ids) {
      const out = [];
      for (const chunk of chunks([...new Set(ids)])) {
        const rows = await k
          .selectFrom('users')
          .select(['id', 'username', 'public_key', 'signing_public_key', 'avatar_extension'])
          .where('id', 'in', chunk)
          .execute();
        out.push(
          ...rows.map((r) => ({
            id: r.id,
            username: r.username,
            publicKey: r.public_key,
            signingPublicKey: r.signing_public_key,
            avatarExtension: r.avatar_extension,
          })),
        );
      }
      return out;
    },
    async accessesFor(userId, itemIds) {
      const out: AccessRecord[] = [];
      for (const chunk of chunks([...new Set(itemIds)])) {
        const rows = await k
          .selectFrom('accesses')
          .selectAll()
          .where('user_id', '=', userId)
          .where('item_id', 'in', chunk)
          .execute();
        out.push(...rows.map(toAccess));
      }
      return out;
    },
    async accessesOn(itemIds) {
      const out: AccessRecord[] = [];
      for (const chunk of chunks([...new Set(itemIds)])) {
        out.push(...(await k.selectFrom('accesses').selectAll().where('item_id', 'in', chunk).execute()).map(toAccess));
      }
      return out.sort((a, b) => a.createdAt - b.createdAt || compare(a.userId, b.userId));
    },
    async sharedWith(userId, page) {
      const rows = await k
        .selectFrom('accesses')
        .selectAll()
        .where('user_id', '=', userId)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('items')
                .innerJoin('share_blocks', 'share_blocks.blocked_id', 'items.owner_id')
                .select('items.id')
                .whereRef('items.id', '=', 'accesses.item_id')
                .where('share_blocks.user_id', '=', userId),
            ),
          ),
        )
        .orderBy('created_at')
        .orderBy('item_id')
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      return rows.map(toAccess);
    },
    async blocksOf(userId) {
      const rows = await k
        .selectFrom('share_blocks')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .orderBy('blocked_id')
        .execute();
      return rows.map((row) => ({ userId: row.user_id, blockedId: row.blocked_id, createdAt: Number(row.created_at) }));
    },
    async blockersAmong(blockedId, userIds) {
      const out = new Set<string>();
      for (const chunk of chunks([...new Set(userIds)])) {
        const rows = await k
          .selectFrom('share_blocks')
          .select('user_id')
          .where('blocked_id', '=', blockedId)
          .where('user_id', 'in', chunk)
          .execute();
        for (const row of rows) out.add(row.user_id);
      }
      return out;
    },
    async link(id) {
      const row = await k.selectFrom('links').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toLink(row);
    },
    async linksOn(itemIds) {
      const out: LinkRecord[] = [];
      for (const chunk of chunks([...new Set(itemIds)])) {
        out.push(...(await k.selectFrom('links').selectAll().where('item_id', 'in', chunk).execute()).map(toLink));
      }
      return out.sort((a, b) => a.createdAt - b.createdAt || compare(a.id, b.id));
    },
  };
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

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

function transactionOf(
  k: Kysely<Database>,
  dialect: SqlDialect,
  publish: FilesTransaction['publish'],
  afterCommit: FilesTransaction['afterCommit'],
): FilesTransaction {
  return {
    ...reader(k),
    publish,
    afterCommit,
    async lockOwner(userId) {
      let query = k.selectFrom('users').select(QUOTA_COLUMNS).where('id', '=', userId);
      if (dialect === 'postgres') query = query.forUpdate();
      const row = await query.executeTakeFirst();
      return row && toQuota(row);
    },
    async lockUpload(id) {
      let query = k.selectFrom('uploads').selectAll().where('id', '=', id);
      if (dialect === 'postgres') query = query.forUpdate();
      const row = await query.executeTakeFirst();
      return row && toUpload(row);
    },
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
      await k.updateTable('items').set(values).where('id', '=', id).execute();
    },
    async markDeleting(id, at) {
      await k.updateTable('items').set({ deleting_since: at }).where('id', '=', id).execute();
    },
    async deleteItems(ids) {
      const removed = new Map<string, number>();
      for (const chunk of chunks(ids)) {
        const rows = await k.deleteFrom('items').where('id', 'in', chunk).returning('owner_id').execute();
        for (const { owner_id } of rows) removed.set(owner_id, (removed.get(owner_id) ?? 0) + 1);
      }
      for (const [ownerId, count] of removed) await countItems(k, ownerId, -count);
    },
    async putPart(part) {
      const existing = await k
        .selectFrom('item_parts')
        .selectAll()
        .where('item_id', '=', part.itemId)
        .where('n', '=', part.n)
        .executeTakeFirst();
      if (existing) {
        await k
          .updateTable('item_parts')
          .set({ size: part.size, blob_key: part.blobKey, created_at: part.createdAt })
          .where('item_id', '=', part.itemId)
          .where('n', '=', part.n)
          .execute();
        return toPart(existing);
      }
      await k
        .insertInto('item_parts')
        .values({ item_id: part.itemId, n: part.n, size: part.size, blob_key: part.blobKey, created_at: part.createdAt })
        .execute();
      return undefined;
    },
    async deleteParts(itemIds) {
      const out: PartRecord[] = [];
      for (const chunk of chunks(itemIds)) {
        const rows = await k.deleteFrom('item_parts').where('item_id', 'in', chunk).returningAll().execute();
        out.push(...rows.map(toPart));
      }
      return out;
    },
    async insertUpload(upload) {
      await k
        .insertInto('uploads')
        .values({
          id: upload.id,
          item_id: upload.itemId,
          user_id: upload.userId,
          link_id: upload.linkId,
          anonymous: upload.anonymous === null ? null : upload.anonymous ? 1 : 0,
          size: upload.size,
          parts: upload.parts,
          reserved_remaining: upload.reservedRemaining,
          created_at: upload.createdAt,
          last_activity_at: upload.lastActivityAt,
          expires_at: upload.expiresAt,
        })
        .execute();
    },
    async updateUpload(id, changes) {
      const values: Record<string, number> = {};
      if (changes.reservedRemaining !== undefined) values.reserved_remaining = changes.reservedRemaining;
      if (changes.lastActivityAt !== undefined) values.last_activity_at = changes.lastActivityAt;
      if (changes.expiresAt !== undefined) values.expires_at = changes.expiresAt;
      if (Object.keys(values).length === 0) return;
      await k.updateTable('uploads').set(values).where('id', '=', id).execute();
    },
    async deleteUploads(itemIds) {
      const out: UploadRecord[] = [];
      for (const chunk of chunks(itemIds)) {
        const rows = await k.deleteFrom('uploads').where('item_id', 'in', chunk).returningAll().execute();
        out.push(...rows.map(toUpload));
      }
      return out;
    },
    async insertAccess(access) {
      await k
        .insertInto('accesses')
        .values({
          item_id: access.itemId,
          user_id: access.userId,
          encrypted_key: access.encryptedKey,
          signature: access.signature,
          edit_permission: access.edit ? 1 : 0,
          sharer_id: access.sharerId,
          created_at: access.createdAt,
        })
        .execute();
    },
    async updateAccess(itemId, userId, changes) {
      const rows = await k
        .updateTable('accesses')
        .set({ edit_permission: changes.edit ? 1 : 0, signature: changes.signature })
        .where('item_id', '=', itemId)
        .where('user_id', '=', userId)
        .returning('item_id')
        .execute();
      return rows.length > 0;
    },
    async deleteAccess(itemId, userId) {
      const rows = await k
        .deleteFrom('accesses')
        .where('item_id', '=', itemId)
        .where('user_id', '=', userId)
        .returning('item_id')
        .execute();
      return rows.length > 0;
    },
    async insertBlock(block) {
      const rows = await k
        .insertInto('share_blocks')
        .values({ user_id: block.userId, blocked_id: block.blockedId, created_at: block.createdAt })
        .onConflict((oc) => oc.columns(['user_id', 'blocked_id']).doNothing())
        .returning('user_id')
        .execute();
      return rows.length > 0;
    },
    async deleteBlock(userId, blockedId) {
      const result = await k
        .deleteFrom('share_blocks')
        .where('user_id', '=', userId)
        .where('blocked_id', '=', blockedId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async insertLink(link) {
      await k
        .insertInto('links')
        .values({
          id: link.id,
          item_id: link.itemId,
          edit_permission: link.edit ? 1 : 0,
          password_hash: link.passwordHash,
          password_epoch: link.passwordEpoch,
          expires_at: link.expiresAt,
          created_at: link.createdAt,
          modified_at: link.modifiedAt,
        })
        .execute();
    },
    async updateLink(id, changes) {
      const values: Record<string, unknown> = {};
      if (changes.edit !== undefined) values.edit_permission = changes.edit ? 1 : 0;
      if (changes.passwordHash !== undefined) values.password_hash = changes.passwordHash;
      if (changes.passwordEpoch !== undefined) values.password_epoch = changes.passwordEpoch;
      if (changes.modifiedAt !== undefined) values.modified_at = changes.modifiedAt;
      if (Object.keys(values).length === 0) return;
      await k.updateTable('links').set(values).where('id', '=', id).execute();
    },
    async deleteLink(id) {
      const rows = await k.deleteFrom('links').where('id', '=', id).returning('id').execute();
      return rows.length > 0;
    },
    async adjustSpace(userId, delta) {
      const used = delta.used ?? 0;
      const reserved = delta.reserved ?? 0;
      if (used === 0 && reserved === 0) return;
      await k
        .updateTable('users')
        .set((eb) => ({
          used_space: eb('used_space', '+', used),
          reserved_space: eb('reserved_space', '+', reserved),
        }))
        .where('id', '=', userId)
        .execute();
    },
  };
}

/** users.item_count follows every insert and delete of items, in the same transaction. */
async function countItems(k: Kysely<Database>, ownerId: string, delta: number): Promise<void> {
  await k
    .updateTable('users')
    .set((eb) => ({ item_count: eb('item_count', '+', delta) }))
    .where('id', '=', ownerId)
    .execute();
}

function* chunks<T>(list: readonly T[]): Generator<T[]> {
  for (let i = 0; i < list.length; i += IN_CHUNK) yield list.slice(i, i + IN_CHUNK);
}

function toItem(row: ItemRow): ItemRecord {
  return toItemIn(row, row.parent_id, row.deleting_since === null ? row.state : 'deleting');
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

function toPart(row: Selectable<ItemPartsTable>): PartRecord {
  return {
    itemId: row.item_id,
    n: Number(row.n),
    size: Number(row.size),
    blobKey: row.blob_key,
    createdAt: Number(row.created_at),
  };
}

function toUpload(row: Selectable<UploadsTable>): UploadRecord {
  return {
    id: row.id,
    itemId: row.item_id,
    userId: row.user_id,
    linkId: row.link_id ?? null,
    anonymous: row.anonymous === null ? null : row.anonymous === 1,
    size: Number(row.size),
    parts: Number(row.parts),
    reservedRemaining: Number(row.reserved_remaining),
    createdAt: Number(row.created_at),
    lastActivityAt: Number(row.last_activity_at),
    expiresAt: Number(row.expires_at),
  };
}

function toAccess(row: Selectable<AccessesTable>): AccessRecord {
  return {
    itemId: row.item_id,
    userId: row.user_id,
    encryptedKey: row.encrypted_key,
    signature: row.signature,
    edit: row.edit_permission === 1,
    sharerId: row.sharer_id,
    createdAt: Number(row.created_at),
  };
}

function toLink(row: Selectable<LinksTable>): LinkRecord {
  return {
    id: row.id,
    itemId: row.item_id,
    edit: row.edit_permission === 1,
    passwordHash: row.password_hash,
    passwordEpoch: Number(row.password_epoch),
    expiresAt: row.expires_at === null ? null : Number(row.expires_at),
    createdAt: Number(row.created_at),
    modifiedAt: Number(row.modified_at),
  };
}

function toQuota(row: {
  id: string;
  used_space: number;
  reserved_space: number;
  total_space: number;
  item_count: number;
}): QuotaRecord {
  return {
    userId: row.id,
    usedSpace: Number(row.used_space),
    reservedSpace: Number(row.reserved_space),
    totalSpace: Number(row.total_space),
    itemCount: Number(row.item_count),
  };
}
