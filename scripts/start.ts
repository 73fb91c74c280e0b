/** `npm start`: build the web app, then run the server on embedded defaults (SQLite + ./data). */
import { buildWeb } from './build-web.ts';

await buildWeb();
const bun = process.execPath;
const server = Bun.spawn([bun, 'apps/server/src/main.ts'], {
  cwd: new URL('..', import.meta.url).pathname,
  stdio: ['inherit', 'inherit', 'inherit'],
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
process.exit(await server.exited);
