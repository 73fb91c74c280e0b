import { kdfUpgradeSuite } from './kdf/kdf-upgrade.suite.ts';
import { passwordChangeSuite } from './kdf/password-change.suite.ts';
import { recoverySuite } from './kdf/recovery.suite.ts';
import { throwawayPostgres } from './support/postgres-schema.ts';
import { postgresAvailability, reportUnavailable } from './support/services.ts';

const availability = await postgresAvailability();

if (availability.available) {
  kdfUpgradeSuite('postgres', (events) => throwawayPostgres('sealbox_kdf', events));
  passwordChangeSuite('postgres', (events) => throwawayPostgres('sealbox_pwchange', events));
  recoverySuite('postgres', (events) => throwawayPostgres('sealbox_recovery', events));
} else {
  reportUnavailable('PUT /api/account/kdf, /api/account/password and recovery: postgres', availability.reason);
}
