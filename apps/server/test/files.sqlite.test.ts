import { filesSuite } from './files/files.suite.ts';
import { sqliteDiskEnv } from './support/sqlite-env.ts';

filesSuite('sqlite + disk', (events) => sqliteDiskEnv(events));
