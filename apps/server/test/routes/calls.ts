import { connect } from 'node:net';
import type { BatchResult } from '../../src/domain/files/index.ts';
import { STATUS_BY_CODE } from '../../src/http/plugins/error-mapping.ts';
import type { FilesHarness } from '../files/harness.ts';
import { snapshot as sharingSnapshot, withLink } from '../sharing/harness.ts';
import type { Caller, Spec } from './outcomes.ts';

/**
 * How the route matrix calls the app of `matrix.h` (read at each call, as it is opened before the
 * first test): a row's request as a caller sends it, HTTP or a WebSocket upgrade; `stop` closes
 * the app listening for the upgrades, if one was started.
 */
export function callsTo(matrix: { h: FilesHarness }) {
  /** A request as `caller`'s browser sends it, without touching its cookie jar. */
  const send = async (caller: Caller, spec: Spec, method: string) => {
    if (spec.upgrade) return upgrade(caller, spec);
    const response = await matrix.h.app.handle(caller.browser.prepare(method, withLink(spec.path, caller.linkId), spec));
    if (spec.batch && response.status === 200) {
      const [only] = ((await response.json()) as { results: BatchResult[] }).results;
      return !only || only.ok ? 200 : STATUS_BY_CODE[only.error];
    }
    await response.arrayBuffer();
    return response.status;
  };

  /** A WebSocket upgrade as `caller`, over TCP to a listening app of the harness: the answer's status. */
  let listening: ReturnType<FilesHarness['makeApp']> | undefined;
  const upgrade = async (caller: Caller, spec: Spec) => {
    if (!listening) {
      listening = matrix.h.makeApp();
      listening.listen({ hostname: '127.0.0.1', port: 0 });
    }
    const port = listening.server?.port;
    if (port === undefined) throw new Error('the live app is not listening');
    const cookies = caller.browser.cookies();
    const head = [
      `GET ${withLink(spec.path, caller.linkId)} HTTP/1.1`,
      `Host: 127.0.0.1:${port}`,
      `Origin: http://127.0.0.1:${port}`,
      'Connection: Upgrade',
      'Upgrade: websocket',
      'Sec-WebSocket-Version: 13',
      `Sec-WebSocket-Key: ${btoa('0123456789abcdef')}`,
      ...(cookies.length > 0 ? [`Cookie: ${cookies.join('; ')}`] : []),
      '',
      '',
    ].join('\r\n');
    return await new Promise<number>((resolve, reject) => {
      let seen = '';
      const socket = connect(port, '127.0.0.1', () => socket.write(head));
      socket.on('data', (chunk) => {
        seen += chunk.toString('latin1');
        const status = /^HTTP\/1\.1 (\d{3})/.exec(seen);
        if (status) {
          socket.destroy();
          resolve(Number(status[1]));
        }
      });
      socket.on('error', reject);
      socket.on('close', () => reject(new Error(`no answer to the upgrade: ${JSON.stringify(seen)}`)));
    });
  };

  const stop = async () => {
    await listening?.stop(true);
  };
  return { send, stop };
}

/** Everything a refused call must leave untouched: items, parts, uploads, quota, blobs, grants, links, accounts. */
export async function stateOf(h: FilesHarness) {
  const k = h.db.kysely;
  return {
    ...(await sharingSnapshot(h)),
    accounts: await k.selectFrom('users').selectAll().orderBy('id').execute(),
    sessions: await k.selectFrom('sessions').select(['id', 'user_id', 'totp_pending']).orderBy('id').execute(),
    pins: await k.selectFrom('key_pins').selectAll().orderBy('user_id').execute(),
    recoveryCodes: await k.selectFrom('totp_recovery_codes').selectAll().orderBy('user_id').orderBy('code_hash').execute(),
  };
}
