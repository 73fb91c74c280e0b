import { blocksSuite } from './sharing/blocks.suite.ts';
import { sqliteDiskEnv } from './support/sqlite-env.ts';

blocksSuite('sqlite + disk', (events) => sqliteDiskEnv(events, 'sealbox-blocks-'));
