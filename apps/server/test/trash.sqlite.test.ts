import { sqliteDiskEnv } from './support/sqlite-env.ts';
import { trashSuite } from './trash/trash.suite.ts';

trashSuite('sqlite + disk', (events) => sqliteDiskEnv(events, 'sealbox-trash-'));
