import { listingLimitsSuite } from './sharing/listing-limits.suite.ts';
import { sqliteDiskEnv } from './support/sqlite-env.ts';

listingLimitsSuite('sqlite + disk', (events) => sqliteDiskEnv(events, 'sealbox-listing-limits-'));
