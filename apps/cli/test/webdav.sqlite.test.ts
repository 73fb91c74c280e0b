import { describe, test } from 'bun:test';
import { servicesRequired } from '../../server/test/support/services.ts';
import { webdavSuite } from './webdav.suite.ts';

const clients = ['litmus', 'rclone'].filter((tool) => !Bun.which(tool));
if (clients.length === 0) webdavSuite();
else if (servicesRequired) {
  describe('sealbox webdav: sqlite + disk', () => {
    test('litmus and rclone are installed (required by CI / SEALBOX_REQUIRE_SERVICES)', () => {
      throw new Error(`missing: ${clients.join(', ')} (apt-get install ${clients.join(' ')})`);
    });
  });
} else {
  console.warn(`[skip] sealbox webdav: missing ${clients.join(', ')}. Set SEALBOX_REQUIRE_SERVICES=1 to make this a failure.`);
  describe.skip('sealbox webdav: sqlite + disk', () => {
    test('skipped: litmus or rclone missing', () => {});
  });
}
