import { routeMatrixSuite } from './routes/route-matrix.suite.ts';
import { withPostgresAndS3 } from './support/postgres-s3-env.ts';

await withPostgresAndS3('route matrix', 'routes', (makeEnv) => routeMatrixSuite('postgres + s3 (s3rver)', makeEnv));
