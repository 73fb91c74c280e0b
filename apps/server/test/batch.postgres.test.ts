import { batchSuite } from './batch/batch.suite.ts';
import { withPostgresAndS3 } from './support/postgres-s3-env.ts';

await withPostgresAndS3('batch', 'batch', (makeEnv) => batchSuite('postgres + s3 (s3rver)', makeEnv));
