import { postgresAvailability, reportUnavailable, throwawayDatabase } from '../../server/test/support/services.ts';
import { s3Env, startLocalS3 } from '../../server/test/support/s3rver.ts';
import { cliSuite } from './cli.suite.ts';

const SUITE = 'sealbox CLI: postgres + s3 (s3rver)';
const availability = await postgresAvailability();

if (availability.available) {
  cliSuite('postgres + s3 (s3rver)', async () => {
    const database = await throwawayDatabase('sealbox_cli');
    const s3 = await startLocalS3('sealbox-cli');
    return {
      env: { DATABASE_URL: database.url, ...s3Env(s3) },
      async stop() {
        await s3.stop();
        await database.drop();
      },
    };
  });
} else {
  reportUnavailable(SUITE, availability.reason);
}
