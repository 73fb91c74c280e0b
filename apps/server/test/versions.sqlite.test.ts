import { sqliteDiskEnv } from './support/sqlite-env.ts';
import { versionsSuite } from './versions/versions.suite.ts';

versionsSuite('sqlite + disk', (events) => sqliteDiskEnv(events, 'sealbox-versions-'));
