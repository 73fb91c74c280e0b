import { filesSuite } from './files/files.suite.ts';
import { withPostgresAndS3 } from './support/postgres-s3-env.ts';

await withPostgresAndS3('files and uploads', 'files', (makeEnv) => filesSuite('postgres + s3 (s3rver)', makeEnv));
