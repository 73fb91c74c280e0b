import { sqliteDiskEnv } from './support/sqlite-env.ts';
import { treeVersionSuite } from './tree-version/tree-version.suite.ts';

treeVersionSuite('sqlite + disk', (events) => sqliteDiskEnv(events, 'sealbox-tree-version-'));
