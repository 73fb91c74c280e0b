import { blocksSuite } from './sharing/blocks.suite.ts';
import { withPostgresAndS3 } from './support/postgres-s3-env.ts';

await withPostgresAndS3('blocked accounts', 'blocks', (makeEnv) => blocksSuite('postgres + s3 (s3rver)', makeEnv));
