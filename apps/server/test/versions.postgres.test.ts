import { withPostgresAndS3 } from './support/postgres-s3-env.ts';
import { versionsSuite } from './versions/versions.suite.ts';

await withPostgresAndS3('versions', 'versions', (makeEnv) => versionsSuite('postgres + s3 (s3rver)', makeEnv));
