/** `npm start`: build the web app, then run the server on embedded defaults (SQLite + ./data). */
import { buildWeb } from './build-web.ts';

// A signal while the build runs stops the build and exits, rather than leaving it running alone.
const stopBuild = new AbortController();
let server: ReturnType<typeof Bun.spawn> | undefined;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (server) server.kill(signal);
    else {
      stopBuild.abort();
      process.exit(signal === 'SIGINT' ? 130 : 143);
    }
  });
}

await buildWeb(stopBuild.signal);
server = Bun.spawn([process.execPath, 'apps/server/src/main.ts'], {
  cwd: new URL('..', import.meta.url).pathname,
  stdio: ['inherit', 'inherit', 'inherit'],
});
process.exit(await server.exited);
