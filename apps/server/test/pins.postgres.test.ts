import { pinsSuite } from './accounts/pins.suite.ts';
import { throwawayPostgres } from './support/postgres-schema.ts';
import { postgresAvailability, reportUnavailable } from './support/services.ts';

const availability = await postgresAvailability();

if (availability.available) {
  pinsSuite('postgres', (events) => throwawayPostgres('sealbox_pins', events));
} else {
  reportUnavailable('Key pins API: postgres', availability.reason);
}
