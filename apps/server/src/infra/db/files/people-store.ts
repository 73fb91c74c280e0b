import { deletedAccountName } from '@sealbox/rules';
import type { Kysely } from 'kysely';
import type { Database } from '../../../ports/db.ts';
import type { PeopleReader } from '../../../ports/files/people.ts';
import { inChunks } from './in-chunks.ts';

export function peopleReader(k: Kysely<Database>): PeopleReader {
  return {
    async userSummaries(ids) {
      const rows = await inChunks(ids, (chunk) =>
        k.selectFrom('users').select(['id', 'username', 'avatar_extension', 'deleted_at']).where('id', 'in', chunk).execute(),
      );
      // A deleted account is named as such at once, not by the name it had (reserved a while yet).
      return rows.map((r) => ({
        id: r.id,
        username: r.deleted_at === null ? r.username : deletedAccountName(r.id),
        avatarExtension: r.avatar_extension,
      }));
    },
    async publicUsers(ids) {
      const rows = await inChunks(ids, (chunk) =>
        k
          .selectFrom('users')
          .select(['id', 'username', 'public_key', 'signing_public_key', 'avatar_extension'])
          .where('id', 'in', chunk)
          // Nobody shares with a deleted account (migration 016).
          .where('deleted_at', 'is', null)
          .execute(),
      );
      return rows.map((r) => ({
        id: r.id,
        username: r.username,
        publicKey: r.public_key,
        signingPublicKey: r.signing_public_key,
        avatarExtension: r.avatar_extension,
      }));
    },
  };
}
