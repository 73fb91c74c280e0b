import { oldBuildRowsSuite } from './accounts/old-build-rows.suite.ts';
import { throwawayPostgres } from './support/postgres-schema.ts';
import { postgresAvailability, reportUnavailable } from './support/services.ts';

const availability = await postgresAvailability();

if (availability.available) {
  oldBuildRowsSuite('postgres', (events) => throwawayPostgres('sealbox_old_rows', events));
} else {
  reportUnavailable('Rows an older build writes: postgres', availability.reason);
}
