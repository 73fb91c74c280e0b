import { accountDeletionSuite } from './account-deletion/deletion.suite.ts';
import { sqliteDiskEnv } from './support/sqlite-env.ts';

accountDeletionSuite('sqlite + disk', (events) => sqliteDiskEnv(events, 'sealbox-account-deletion-'));
