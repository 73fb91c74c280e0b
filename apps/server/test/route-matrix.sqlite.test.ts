import { routeMatrixSuite } from './routes/route-matrix.suite.ts';
import { sqliteDiskEnv } from './support/sqlite-env.ts';

routeMatrixSuite('sqlite + disk', (events) => sqliteDiskEnv(events, 'sealbox-routes-'));
