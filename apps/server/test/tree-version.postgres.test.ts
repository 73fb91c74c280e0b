import { withPostgresAndS3 } from './support/postgres-s3-env.ts';
import { treeVersionSuite } from './tree-version/tree-version.suite.ts';

await withPostgresAndS3('tree_version', 'tree-version', (makeEnv) => treeVersionSuite('postgres + s3 (s3rver)', makeEnv));
