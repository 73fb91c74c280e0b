import type { Selectable } from 'kysely';
import type { SessionRecord, SessionRepository } from '../../../ports/accounts.ts';
import type { Db } from '../../../ports/db.ts';
import type { SessionsTable } from '../../../ports/db-schema.ts';
import type { SealboxEvent } from '../../../ports/event-bus.ts';

export function createSessionRepository(db: Db): SessionRepository {
  const k = db.kysely;

  const deleteWhere = async (id: string, userId: string | undefined, event: SealboxEvent | undefined) =>
    db.transaction(async (tx) => {
      let query = tx.kysely.deleteFrom('sessions').where('id', '=', id);
      if (userId !== undefined) query = query.where('user_id', '=', userId);
      const result = await query.executeTakeFirst();
      const deleted = Number(result.numDeletedRows) > 0;
      if (deleted && event) tx.publish(event);
      return deleted;
    });

  return {
    async insert(session, verifier) {
      const result = await k
        .insertInto('sessions')
        .columns(['id', 'user_id', 'totp_pending', 'user_agent', 'created_at', 'last_seen_at', 'expires_at'])
        .expression((eb) =>
          eb
            .selectFrom('users')
            .select([
              eb.val(session.id).as('id'),
              'users.id as user_id',
              eb.val(session.totpPending ? 1 : 0).as('totp_pending'),
              eb.val(session.userAgent).as('user_agent'),
              eb.val(session.createdAt).as('created_at'),
              eb.val(session.lastSeenAt).as('last_seen_at'),
              eb.val(session.expiresAt).as('expires_at'),
            ])
            .where('users.id', '=', session.userId)
            .where('users.login_verifier', '=', verifier)
            .where('users.deleted_at', 'is', null)
            // PostgreSQL: waits for a change of the row under way and checks it as committed, so a
            // password change or a delete committing meanwhile cannot be missed (SQLite has one writer).
            .$if(db.dialect === 'postgres', (query) => query.forShare()),
        )
        .returning('id')
        .executeTakeFirst();
      return result !== undefined;
    },

    async findById(id) {
      const row = await k.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toRecord(row);
    },

    async touch(id, lastSeenAt, expiresAt) {
      await k.updateTable('sessions').set({ last_seen_at: lastSeenAt, expires_at: expiresAt }).where('id', '=', id).execute();
    },

    async listForUser(userId, now) {
      const rows = await k
        .selectFrom('sessions')
        .selectAll()
        .where('user_id', '=', userId)
        .where('totp_pending', '=', 0)
        .where('expires_at', '>', now)
        .orderBy('last_seen_at', 'desc')
        .orderBy('id')
        .execute();
      return rows.map(toRecord);
    },

    deleteForUser: (userId, id, event) => deleteWhere(id, userId, event),
    delete: (id, event) => deleteWhere(id, undefined, event),

    deleteOthersForUser: (userId, keepId, eventOf) =>
      db.transaction(async (tx) => {
        const rows = await tx.kysely
          .deleteFrom('sessions')
          .where('user_id', '=', userId)
          .where('id', '!=', keepId)
          .returning('id')
          .execute();
        for (const row of rows) tx.publish(eventOf(row.id));
        return rows.length;
      }),

    async deleteExpired(now) {
      const result = await k.deleteFrom('sessions').where('expires_at', '<=', now).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

function toRecord(row: Selectable<SessionsTable>): SessionRecord {
  return {
    id: row.id,
    userId: row.user_id,
    totpPending: row.totp_pending === 1,
    userAgent: row.user_agent,
    createdAt: Number(row.created_at),
    lastSeenAt: Number(row.last_seen_at),
    expiresAt: Number(row.expires_at),
  };
}
