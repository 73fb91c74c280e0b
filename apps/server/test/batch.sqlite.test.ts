import { batchSuite } from './batch/batch.suite.ts';
import { sqliteDiskEnv } from './support/sqlite-env.ts';

batchSuite('sqlite + disk', (events) => sqliteDiskEnv(events, 'sealbox-batch-'));
