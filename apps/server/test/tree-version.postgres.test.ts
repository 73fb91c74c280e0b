import { withPostgresAndS3 } from './support/postgres-s3-env.ts';
import { treeVersionSuite } from './tree-version/tree-version.suite.ts';

await withPostgresAndS3('tree version', 'tree_version', (makeEnv) => treeVersionSuite('postgres + s3 (s3rver)', makeEnv));
