import { cliSuite } from './cli.suite.ts';

cliSuite('sqlite + disk', async () => ({ env: {}, stop: async () => {} }));
