import { sharingSuite } from './sharing/sharing.suite.ts';
import { sqliteDiskEnv } from './support/sqlite-env.ts';

sharingSuite('sqlite + disk', (events) => sqliteDiskEnv(events, 'sealbox-sharing-'));
