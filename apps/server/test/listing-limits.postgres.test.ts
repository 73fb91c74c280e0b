import { listingLimitsSuite } from './sharing/listing-limits.suite.ts';
import { withPostgresAndS3 } from './support/postgres-s3-env.ts';

await withPostgresAndS3('listing limits', 'listing_limits', (makeEnv) => listingLimitsSuite('postgres + s3 (s3rver)', makeEnv));
