import { withPostgresAndS3 } from './support/postgres-s3-env.ts';
import { trashSuite } from './trash/trash.suite.ts';

await withPostgresAndS3('trash', 'trash', (makeEnv) => trashSuite('postgres + s3 (s3rver)', makeEnv));
