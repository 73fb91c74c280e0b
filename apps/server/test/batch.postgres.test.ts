import { batchSuite } from './batch/batch.suite.ts';
import { withPostgresAndS3 } from './support/postgres-s3-env.ts';

// The 10,000-item run is SQLite's (CI time); 2,000 in two calls still crosses PostgreSQL's
// 8,000-byte NOTIFY limit many times over, which the event bus splits.
await withPostgresAndS3('batch', 'batch', (makeEnv) => batchSuite('postgres + s3 (s3rver)', makeEnv, { many: 2000 }));
