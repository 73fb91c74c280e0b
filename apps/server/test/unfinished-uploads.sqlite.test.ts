import { unfinishedUploadsSuite } from './sharing/unfinished-uploads.suite.ts';
import { sqliteDiskEnv } from './support/sqlite-env.ts';

unfinishedUploadsSuite('sqlite + disk', (events) => sqliteDiskEnv(events, 'sealbox-unfinished-'));
