import { sqliteDiskEnv } from './support/sqlite-env.ts';
import { treePagesSuite } from './tree-version/tree-pages.suite.ts';
import { treeVersionSuite } from './tree-version/tree-version.suite.ts';

treeVersionSuite('sqlite + disk', (events) => sqliteDiskEnv(events, 'sealbox-tree-version-'));
treePagesSuite('sqlite + disk', (events) => sqliteDiskEnv(events, 'sealbox-tree-pages-'));
