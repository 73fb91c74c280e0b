/** `sealbox webdav [--port N]` (docs/cli.md "WebDAV"): unlocks once, serves until stopped. */
import { toBase64Url } from '@sealbox/crypto';
import { CliError, EXIT } from '../cli-error.ts';
import { type Context, openAccount } from '../commands.ts';
import { startBridge } from './bridge.ts';
import { Drive } from './drive.ts';
import { followLiveEvents } from './live.ts';

export async function webdavCommand(ctx: Context, portText: string | undefined): Promise<void> {
  const port = portText === undefined ? 0 : Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`Not a port: ${portText}`, EXIT.usage);
  const { session, tree } = await openAccount(ctx);
  const password = process.env.SEALBOX_WEBDAV_PASSWORD || toBase64Url(crypto.getRandomValues(new Uint8Array(18)));
  const drive = new Drive(tree, session.userId);
  let bridge: ReturnType<typeof startBridge>;
  try {
    bridge = startBridge({ drive, port, password });
  } catch (error) {
    throw new CliError(`Cannot listen on 127.0.0.1:${port}: ${(error as Error).message}`, EXIT.failed);
  }
  const live = followLiveEvents(tree.conn, drive);
  const facts = { url: bridge.url, username: 'sealbox', password, server: session.server, user: session.username };
  if (ctx.out.json) ctx.out.data(facts);
  else {
    ctx.out.text(`WebDAV for ${session.username} on ${session.server} at ${bridge.url}/`);
    ctx.out.text(`User: sealbox   Password: ${password}`);
    ctx.out.text('Loopback only. Stop with Ctrl+C.');
  }
  await new Promise<void>((resolve) => {
    const stop = () => {
      live.stop();
      bridge.stop();
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
