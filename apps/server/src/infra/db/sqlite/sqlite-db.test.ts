import { describe, expect, test } from 'bun:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { dbContract, userRow } from '../../../../test/contracts/db.contract.ts';
import { createMemoryEventBus } from '../../../infra/events/memory-event-bus.ts';
import { silentLogger } from '../../log/json-logger.ts';
import { openSqliteDb } from './open-sqlite-db.ts';

dbContract('sqlite (file)', async (events) => {
  const dir = await mkdtemp(join(tmpdir(), 'sealbox-sqlite-'));
  const db = await openSqliteDb({ path: join(dir, 'nested', 'sealbox.db'), events, logger: silentLogger });
  return {
    db,
    async cleanup() {
      await db.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});

describe('sqlite adapter', () => {
  test('runs with WAL, foreign keys and a busy timeout', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sealbox-sqlite-'));
    const events = createMemoryEventBus(silentLogger);
    const db = await openSqliteDb({ path: join(dir, 'x.db'), events, logger: silentLogger });
    try {
      const pragma = async (name: string) =>
        Object.values((await sql.raw(`PRAGMA ${name}`).execute(db.kysely)).rows[0] as object)[0];
      expect(await pragma('journal_mode')).toBe('wal');
      expect(await pragma('foreign_keys')).toBe(1);
      expect(await pragma('busy_timeout')).toBe(5000);
    } finally {
      await db.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('a reopened database has table statistics for its planner (PRAGMA optimize)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sealbox-sqlite-'));
    const path = join(dir, 'x.db');
    const events = createMemoryEventBus(silentLogger);
    try {
      const first = await openSqliteDb({ path, events, logger: silentLogger });
      for (let i = 0; i < 50; i++) await first.kysely.insertInto('users').values(userRow()).execute();
      await first.close();
      const second = await openSqliteDb({ path, events, logger: silentLogger });
      const stats = await sql<{ tbl: string; stat: string }>`select tbl, stat from sqlite_stat1`.execute(second.kysely);
      const users = stats.rows.filter((r) => r.tbl === 'users');
      expect(users.length).toBeGreaterThan(0);
      expect(users.every((r) => r.stat.startsWith('50'))).toBe(true);
      await second.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('a reopened database keeps its data and does not re-run migrations', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sealbox-sqlite-'));
    const path = join(dir, 'x.db');
    const events = createMemoryEventBus(silentLogger);
    try {
      const first = await openSqliteDb({ path, events, logger: silentLogger });
      const user = userRow();
      await first.kysely.insertInto('users').values(user).execute();
      await first.close();
      const second = await openSqliteDb({ path, events, logger: silentLogger });
      const migrations = await sql<{ name: string }>`select name from kysely_migration`.execute(second.kysely);
      expect(migrations.rows.map((r) => r.name)).toEqual([
        '001-initial-schema',
        '002-accounts',
        '003-files',
        '004-listing-index',
        '005-name-keys',
        '006-tree-limits',
        '007-sharing',
        '008-key-pins-link-expiry',
        '009-name-keys-beside-old-builds',
        '010-upload-anonymous',
        '011-upload-sources',
        '012-share-blocks',
        '013-link-ended',
        '014-account-recovery',
        '015-totp-recovery-codes',
        '016-account-deleted',
        '017-trash',
        '018-versions',
        '019-tree-version',
        '020-top-level-index',
      ]);
      expect(await second.kysely.selectFrom('users').select('id').execute()).toEqual([{ id: user.id }]);
      await second.close();
      await expect(second.health()).rejects.toThrow();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
