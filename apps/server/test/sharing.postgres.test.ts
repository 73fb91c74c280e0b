import { sharingSuite } from './sharing/sharing.suite.ts';
import { withPostgresAndS3 } from './support/postgres-s3-env.ts';

await withPostgresAndS3('sharing', 'sharing', (makeEnv) => sharingSuite('postgres + s3 (s3rver)', makeEnv));
