import { withPostgresAndS3 } from './support/postgres-s3-env.ts';
import { treePagesSuite } from './tree-version/tree-pages.suite.ts';
import { treeVersionSuite } from './tree-version/tree-version.suite.ts';

await withPostgresAndS3('tree version', 'tree_version', (makeEnv) => {
  treeVersionSuite('postgres + s3 (s3rver)', makeEnv);
  treePagesSuite('postgres + s3 (s3rver)', makeEnv);
});
