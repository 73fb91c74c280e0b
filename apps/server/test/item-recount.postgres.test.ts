import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { sql, type Kysely } from 'kysely';
import postgres from 'postgres';
import { createMemoryEventBus } from '../src/infra/events/memory-event-bus.ts';
import { silentLogger } from '../src/infra/log/json-logger.ts';
import type { Database } from '../src/ports/db.ts';
import { namedBlock } from './support/doc-blocks.ts';
import { throwawayPostgres } from './support/postgres-schema.ts';
import { postgresAvailability, reportUnavailable, TEST_DATABASE_URL, waitFor } from './support/services.ts';

const availability = await postgresAvailability();

/**
 * docs/operations.md's item recount, run as written while an instance of this build adds an
 * item: the recount must not lose it (issue 16's review: a single UPDATE counted from the
 * snapshot it started with and ended one low).
 */
if (availability.available) {
  describe("the guide's item recount beside running instances", () => {
    let database: Awaited<ReturnType<typeof throwawayPostgres>>;
    let kysely: Kysely<Database>;

    beforeAll(async () => {
      database = await throwawayPostgres('sealbox_recount', createMemoryEventBus(silentLogger));
      kysely = database.db.kysely;
    }, 60_000);
    afterAll(() => database.cleanup());

    const item = (ownerId: string) => {
      const now = Date.now();
      const id = crypto.randomUUID();
      return {
        id,
        parent_id: null,
        owner_id: ownerId,
        uploader_id: ownerId,
        is_directory: 1 as const,
        encrypted_file_name: `name-${id}`,
        name_nonce: 'nonce',
        encrypted_key: 'key',
        state: 'ready' as const,
        created_at: now,
        modified_at: now,
      };
    };

    test('an item added while the recount waits for its owner is counted', async () => {
      const id = crypto.randomUUID();
      await kysely
        .insertInto('users')
        .values({
          id,
          username: `recount-${id}`,
          email: null,
          username_key: `recount-${id}`,
          email_key: null,
          login_verifier: 'verifier',
          password_salt: 'salt',
          kdf_params: '{}',
          salt: 'salt',
          iv: 'iv',
          encrypted_private_key: 'key',
          public_key: 'public',
          signing_public_key: 'signing',
          total_space: 1,
          avatar_extension: null,
          totp_secret: null,
          totp_last_used_step: null,
          created_at: Date.now(),
        })
        .execute();
      // Wrong on purpose, as builds before 0.3.0 leave it.
      await kysely
        .insertInto('items')
        .values([item(id), item(id)])
        .execute();

      // As the files store adds an item: the owner's row locked, the item, the count + 1.
      const upload = await kysely.startTransaction().execute();
      const recounterName = `recount-${id.slice(0, 8)}`;
      const recounter = postgres(TEST_DATABASE_URL, {
        max: 1,
        onnotice: () => {},
        connection: { search_path: database.schema, application_name: recounterName },
      });
      let recount: Promise<unknown> | undefined;
      try {
        await upload.selectFrom('users').select('id').where('id', '=', id).forUpdate().execute();
        await upload.insertInto('items').values(item(id)).execute();
        await upload
          .updateTable('users')
          .set((eb) => ({ item_count: eb('item_count', '+', 1) }))
          .where('id', '=', id)
          .execute();
        recount = recounter.unsafe(await namedBlock('item-recount'));
        recount.catch(() => {});
        await waitFor(
          async () => {
            const { rows } = await sql<{ waiting: number }>`
            select count(*)::int as waiting from pg_stat_activity
            where application_name = ${recounterName} and wait_event_type = 'Lock'
          `.execute(kysely);
            return (rows[0]?.waiting ?? 0) > 0;
          },
          10_000,
          'the recount to wait for the owner',
        );
      } finally {
        await upload.commit().execute();
      }
      try {
        await recount;
      } finally {
        await recounter.end({ timeout: 5 });
      }
      const row = await kysely.selectFrom('users').select('item_count').where('id', '=', id).executeTakeFirstOrThrow();
      expect(Number(row.item_count)).toBe(3);
    });
  });
} else {
  reportUnavailable("The guide's item recount", availability.reason);
}
