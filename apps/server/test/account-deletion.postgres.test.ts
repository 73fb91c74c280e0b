import { accountDeletionSuite } from './account-deletion/deletion.suite.ts';
import { withPostgresAndS3 } from './support/postgres-s3-env.ts';

await withPostgresAndS3('account deletion', 'account_deletion', (makeEnv) =>
  accountDeletionSuite('postgres + s3 (s3rver)', makeEnv),
);
