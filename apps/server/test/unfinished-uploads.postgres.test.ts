import { unfinishedUploadsSuite } from './sharing/unfinished-uploads.suite.ts';
import { withPostgresAndS3 } from './support/postgres-s3-env.ts';

await withPostgresAndS3('unfinished uploads', 'unfinished', (makeEnv) =>
  unfinishedUploadsSuite('postgres + s3 (s3rver)', makeEnv),
);
