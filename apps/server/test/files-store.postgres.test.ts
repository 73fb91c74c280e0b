import { filesStoreContracts } from './contracts/files/index.ts';
import { throwawayPostgres } from './support/postgres-schema.ts';
import { postgresAvailability, reportUnavailable } from './support/services.ts';

const availability = await postgresAvailability();

if (availability.available) {
  filesStoreContracts('postgres', (events) => throwawayPostgres('sealbox_files_store', events));
} else {
  reportUnavailable('files store ports: postgres', availability.reason);
}
