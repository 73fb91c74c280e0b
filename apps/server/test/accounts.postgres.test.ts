import { accountsSuite } from './accounts/accounts.suite.ts';
import { throwawayPostgres } from './support/postgres-schema.ts';
import { postgresAvailability, reportUnavailable } from './support/services.ts';

const availability = await postgresAvailability();

if (availability.available) {
  accountsSuite('postgres', (events) => throwawayPostgres('sealbox_accounts', events));
} else {
  reportUnavailable('Accounts API: postgres', availability.reason);
}
