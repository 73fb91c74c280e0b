import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { sql } from 'kysely';
import { DomainError } from '../../src/domain/errors.ts';
import { migrateToLatest } from '../../src/infra/db/migrate.ts';
import { createMemoryEventBus } from '../../src/infra/events/memory-event-bus.ts';
import { silentLogger } from '../../src/infra/log/json-logger.ts';
import type { Db } from '../../src/ports/db.ts';
import type { UsersTable } from '../../src/ports/db-schema.ts';
import type { EventBus, SealboxEvent } from '../../src/ports/event-bus.ts';
import type { Insertable } from 'kysely';
import { nameKey } from '../../src/ports/accounts.ts';

export interface DbFixture {
  db: Db;
  cleanup(): Promise<void>;
}

/** makeDb must return a freshly migrated, empty database that publishes through `events`. */
export type MakeDb = (events: EventBus) => Promise<DbFixture>;

const NOW = 1_700_000_000_000;

/** A users row; its name keys are derived as the repository derives them (nameKey). */
export function userRow(overrides: Partial<Insertable<UsersTable>> = {}): Insertable<UsersTable> {
  const row = {
    id: crypto.randomUUID(),
    username: `user${Math.floor(Math.random() * 1e9)}`,
    email: null,
    login_verifier: '$argon2id$v=19$m=65536,t=3,p=1$c2FsdA$aGFzaA',
    password_salt: 'AAAAAAAAAAAAAAAAAAAAAA==',
    kdf_params: JSON.stringify({ version: 1, pbkdf2Iterations: 120000 }),
    salt: 'AAAAAAAAAAAAAAAAAAAAAA==',
    iv: 'AAAAAAAAAAAAAAAA',
    encrypted_private_key: 'ZW5jcnlwdGVk',
    public_key: 'cHVibGlj',
    signing_public_key: 'c2lnbmluZw==',
    total_space: 10 * 1024 ** 3,
    totp_secret: null,
    totp_last_used_step: null,
    avatar_extension: null,
    created_at: NOW,
    ...overrides,
  };
  return { ...row, username_key: nameKey(row.username), email_key: row.email ? nameKey(row.email) : null };
}

export async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the operation to fail');
}

export function dbContract(name: string, makeDb: MakeDb): void {
  describe(`Db contract: ${name}`, () => {
    let fixture: DbFixture;
    let db: Db;
    let events: EventBus;
    let delivered: SealboxEvent[];

    beforeEach(async () => {
      events = createMemoryEventBus(silentLogger);
      delivered = [];
      events.subscribe((event) => delivered.push(event));
      fixture = await makeDb(events);
      db = fixture.db;
    });
    afterEach(async () => {
      await fixture?.cleanup();
      await events.close();
    });

    test('migrations are idempotent', async () => {
      expect(await migrateToLatest(db.kysely)).toEqual([]);
      expect(await migrateToLatest(db.kysely)).toEqual([]);
      const tables = (await db.kysely.introspection.getTables()).map((t) => t.name).sort();
      expect(tables).toEqual(expect.arrayContaining(['accesses', 'items', 'links', 'sessions', 'uploads', 'users']));
    });

    const insertUser = (overrides: Partial<Insertable<UsersTable>> = {}) =>
      db.kysely.insertInto('users').values(userRow(overrides)).execute();
    // The unique-name checks all insert a row that must be refused; this returns the refusal.
    const refusedUser = async (overrides: Partial<Insertable<UsersTable>>) =>
      (await caught(insertUser(overrides))) as DomainError;

    test('a duplicate primary key is CONFLICT', async () => {
      const user = userRow();
      await db.kysely.insertInto('users').values(user).execute();
      const error = await refusedUser({ id: user.id });
      expect(error).toBeInstanceOf(DomainError);
      expect(error.code).toBe('CONFLICT');
    });

    test('usernames and emails are unique regardless of case: CONFLICT naming the constraint', async () => {
      await insertUser({ username: 'Alice', email: 'Alice@Example.org' });
      const byName = await refusedUser({ username: 'aLICE' });
      expect(byName.code).toBe('CONFLICT');
      expect(byName.detail).toContain('username');
      const byEmail = await refusedUser({ email: 'alice@example.ORG' });
      expect(byEmail.code).toBe('CONFLICT');
      expect(byEmail.detail).toContain('email');
      // Beyond ASCII too, and whatever the Unicode normalisation form ('A' + combining ring).
      await insertUser({ username: 'Åsa' });
      for (const twin of ['åsa', 'ÅSA', 'A\u030Asa']) {
        expect((await refusedUser({ username: twin })).code).toBe('CONFLICT');
      }
      // Many users may have no email.
      await db.kysely.insertInto('users').values([userRow(), userRow()]).execute();
    });

    test('a conflict message does not quote the conflicting value', async () => {
      await insertUser({ username: 'secretname' });
      const error = await refusedUser({ username: 'secretname' });
      expect(error.message).not.toContain('secretname');
    });

    test('a missing foreign key is REFERENCE_MISSING', async () => {
      const error = await caught(
        db.kysely
          .insertInto('sessions')
          .values({ id: 'h', user_id: crypto.randomUUID(), created_at: NOW, last_seen_at: NOW, expires_at: NOW })
          .execute(),
      );
      expect((error as DomainError).code).toBe('REFERENCE_MISSING');
    });

    test('deleting a user cascades to sessions; deleting a folder with children is refused', async () => {
      const user = userRow();
      await db.kysely.insertInto('users').values(user).execute();
      await db.kysely
        .insertInto('sessions')
        .values({ id: 's1', user_id: user.id, created_at: NOW, last_seen_at: NOW, expires_at: NOW + 1 })
        .execute();
      const folder = itemRow(user.id, null, { is_directory: 1 });
      await db.kysely
        .insertInto('items')
        .values([folder, itemRow(user.id, folder.id)])
        .execute();
      const error = await caught(db.kysely.deleteFrom('items').where('id', '=', folder.id).execute());
      expect((error as DomainError).code).toBe('REFERENCE_MISSING');
      await db.kysely.deleteFrom('items').where('parent_id', '=', folder.id).execute();
      await db.kysely.deleteFrom('items').where('id', '=', folder.id).execute();
      await db.kysely.deleteFrom('users').where('id', '=', user.id).execute();
      expect(await db.kysely.selectFrom('sessions').selectAll().execute()).toEqual([]);
    });

    test('bigints above 2^32 and flags come back as the same JS numbers', async () => {
      const big = 2 ** 40 + 12_345;
      const user = userRow({ total_space: big, used_space: 2 ** 33 + 1, totp_last_used_step: 2 ** 35, grid_view: 1 });
      await db.kysely.insertInto('users').values(user).execute();
      await db.kysely
        .insertInto('items')
        .values(itemRow(user.id, null, { size: 5 * 2 ** 32 + 7 }))
        .execute();
      const row = await db.kysely
        .selectFrom('users')
        .select(['total_space', 'used_space', 'totp_last_used_step', 'grid_view', 'totp_enabled', 'created_at'])
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({
        total_space: big,
        used_space: 2 ** 33 + 1,
        totp_last_used_step: 2 ** 35,
        grid_view: 1,
        totp_enabled: 0,
        created_at: NOW,
      });
      const item = await db.kysely.selectFrom('items').select(['size']).executeTakeFirstOrThrow();
      expect(item.size).toBe(5 * 2 ** 32 + 7);
      const { count } = await db.kysely
        .selectFrom('items')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      expect(count).toBe(1);
    });

    test('a transaction that throws leaves nothing behind and rethrows the same error', async () => {
      const user = userRow();
      const boom = new Error('boom');
      const error = await caught(
        db.transaction(async (tx) => {
          await tx.kysely.insertInto('users').values(user).execute();
          throw boom;
        }),
      );
      expect(error).toBe(boom);
      expect(await db.kysely.selectFrom('users').selectAll().execute()).toEqual([]);
    });

    test('a constraint violation inside a transaction rolls it all back as CONFLICT', async () => {
      const first = userRow({ username: 'taken' });
      await db.kysely.insertInto('users').values(first).execute();
      const other = userRow();
      const error = await caught(
        db.transaction(async (tx) => {
          await tx.kysely.insertInto('users').values(other).execute();
          await tx.kysely
            .insertInto('users')
            .values(userRow({ username: 'TAKEN' }))
            .execute();
        }),
      );
      expect((error as DomainError).code).toBe('CONFLICT');
      const ids = (await db.kysely.selectFrom('users').select('id').execute()).map((r) => r.id);
      expect(ids).toEqual([first.id]);
    });

    test('events published in a transaction arrive only after commit', async () => {
      const user = userRow();
      const order: string[] = [];
      const result = await db.transaction(async (tx) => {
        await tx.kysely.insertInto('users').values(user).execute();
        tx.publish({ kind: 'profile.changed', userIds: [user.id] });
        tx.afterCommit(() => {
          order.push('after-commit');
        });
        await Bun.sleep(5);
        expect(delivered).toEqual([]);
        return 42;
      });
      expect(result).toBe(42);
      expect(delivered).toEqual([{ kind: 'profile.changed', userIds: [user.id] }]);
      expect(order).toEqual(['after-commit']);
    });

    test('events published in a rolled-back transaction are never delivered', async () => {
      let ran = false;
      await caught(
        db.transaction(async (tx) => {
          await tx.kysely.insertInto('users').values(userRow()).execute();
          tx.publish({ kind: 'profile.changed', userIds: ['u1'] });
          tx.afterCommit(() => {
            ran = true;
          });
          throw new Error('rollback');
        }),
      );
      await Bun.sleep(20);
      expect(delivered).toEqual([]);
      expect(ran).toBe(false);
    });

    test('a failing after-commit job does not undo or fail the committed transaction', async () => {
      const user = userRow();
      await db.transaction(async (tx) => {
        await tx.kysely.insertInto('users').values(user).execute();
        tx.afterCommit(() => {
          throw new Error('side effect failed');
        });
        tx.publish({ kind: 'profile.changed', userIds: [user.id] });
      });
      expect(await db.kysely.selectFrom('users').select('id').execute()).toEqual([{ id: user.id }]);
      expect(delivered.length).toBe(1);
    });

    test('concurrent transactions both commit', async () => {
      const a = userRow();
      const b = userRow();
      await Promise.all(
        [a, b].map((user) =>
          db.transaction(async (tx) => {
            await tx.kysely.insertInto('users').values(user).execute();
            await Bun.sleep(5);
          }),
        ),
      );
      const ids = (await db.kysely.selectFrom('users').select('id').execute()).map((r) => r.id).sort();
      expect(ids).toEqual([a.id, b.id].sort());
    });

    test('health resolves while open', async () => {
      await db.health();
      await sql`select 1`.execute(db.kysely);
    });
  });
}

export function itemRow(ownerId: string, parentId: string | null, overrides: Record<string, unknown> = {}) {
  return {
    id: crypto.randomUUID(),
    parent_id: parentId,
    owner_id: ownerId,
    uploader_id: ownerId,
    is_directory: 0 as const,
    encrypted_file_name: 'bmFtZQ==',
    name_nonce: 'AAAAAAAAAAAAAAAA',
    encrypted_mime_type: null,
    mime_type_nonce: null,
    encrypted_key: 'a2V5',
    key_nonce: null,
    file_nonce: null,
    blob_key: null,
    state: 'ready' as const,
    created_at: NOW,
    modified_at: NOW,
    ...overrides,
  };
}
