/**
 * Runs the `sealbox` command as a user would (a child process, its own config folder) against a
 * real server, and reads back what it printed and how it exited.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const MAIN = new URL('../src/main.ts', import.meta.url).pathname;

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface Cli {
  /** The config folder this CLI keeps its session in. */
  dir: string;
  run(args: string[], options?: { env?: Record<string, string>; stdin?: string }): Promise<CliRun>;
  /** `run` with --json, its stdout parsed. */
  json(args: string[], options?: { env?: Record<string, string> }): Promise<{ code: number; value: any }>;
}

export async function makeCli(password: string): Promise<Cli> {
  const dir = await mkdtemp(join(tmpdir(), 'sealbox-cli-'));
  const run: Cli['run'] = async (args, options = {}) => {
    const child = Bun.spawn([process.execPath, MAIN, ...args], {
      env: { ...process.env, SEALBOX_CONFIG_DIR: join(dir, 'config'), SEALBOX_PASSWORD: password, ...options.env },
      stdin: options.stdin === undefined ? 'ignore' : new TextEncoder().encode(options.stdin),
      stdout: 'pipe',
      stderr: 'pipe',
    });
    const [stdout, stderr, code] = await Promise.all([
      new Response(child.stdout).text(),
      new Response(child.stderr).text(),
      child.exited,
    ]);
    return { code, stdout, stderr };
  };
  return {
    dir: join(dir, 'config'),
    run,
    async json(args, options) {
      const result = await run([...args, '--json'], options);
      return { code: result.code, value: JSON.parse(result.stdout) };
    },
  };
}

/**
 * A proxy in front of the server that can misbehave: hold one upload part unanswered for good (a
 * connection that hangs, so the CLI can be killed mid-put), and flip a byte of file data (a hostile
 * server or a broken disk). It counts the parts it saw.
 */
export interface Proxy {
  url: string;
  /** Part numbers whose PUT never gets an answer while set. */
  stallParts: Set<number>;
  /** Flip this byte of every file-data answer (-1: none). */
  flipDataByte: number;
  /** Send this many bytes of a file-data answer, then hang (-1: all). */
  cutDataAfter: number;
  /** The Range header of every file-data request ('' for none). */
  dataRanges: string[];
  /** Every PUT .../part/{n} that reached the proxy, in order. */
  partsSeen: number[];
  /** How many folder listings (GET /api/file) went through. */
  listings: number;
  /** Changes GET /api/shared answers as a hostile server would (undefined: passed as they are). */
  rewriteShared: ((page: { files: any[]; users: any[] }) => unknown) | undefined;
  stop(): void;
}

/** A live socket passed through to the server, and what it sent before the server's end opened. */
interface PassedSocket {
  url: string;
  cookie: string;
  upstream?: WebSocket;
  early: Array<string | Buffer>;
}

/** Bun's WebSocket takes headers; the DOM typings in scope do not say so. */
const SocketWithHeaders = WebSocket as unknown as new (url: string, options: { headers: Record<string, string> }) => WebSocket;

export function startProxy(target: string): Proxy {
  const proxy: Proxy = {
    url: '',
    stallParts: new Set(),
    flipDataByte: -1,
    cutDataAfter: -1,
    dataRanges: [],
    partsSeen: [],
    listings: 0,
    rewriteShared: undefined,
    stop: () => server.stop(true),
  };
  const server = Bun.serve<PassedSocket, never>({
    port: 0,
    hostname: '127.0.0.1',
    // The live socket (GET /api/ws) is passed through as it is, so clients behind the proxy follow events.
    websocket: {
      open(ws) {
        const upstream = new SocketWithHeaders(ws.data.url, { headers: { cookie: ws.data.cookie } });
        ws.data.upstream = upstream;
        upstream.onopen = () => {
          for (const message of ws.data.early.splice(0)) upstream.send(message);
        };
        upstream.onmessage = (message) => ws.send(message.data as string);
        upstream.onclose = () => ws.close();
      },
      message(ws, message) {
        const { upstream } = ws.data;
        if (upstream?.readyState === WebSocket.OPEN) upstream.send(message);
        else ws.data.early.push(message);
      },
      close(ws) {
        ws.data.upstream?.close();
      },
    },
    async fetch(request, bun) {
      const url = new URL(request.url);
      if (url.pathname === '/api/ws') {
        const data = { url: `${target.replace(/^http/, 'ws')}/api/ws`, cookie: request.headers.get('cookie') ?? '', early: [] };
        return bun.upgrade(request, { data }) ? undefined : new Response('upgrade failed', { status: 400 });
      }
      if (url.pathname === '/api/file' && request.method === 'GET') proxy.listings++;
      const part = /\/part\/(\d+)$/.exec(url.pathname);
      if (part && request.method === 'PUT') {
        const n = Number(part[1]);
        proxy.partsSeen.push(n);
        if (proxy.stallParts.has(n)) return new Promise<Response>(() => {});
      }
      const isData = url.pathname.startsWith('/api/file/data/');
      if (isData) proxy.dataRanges.push(request.headers.get('range') ?? '');
      const headers = new Headers(request.headers);
      headers.delete('host');
      const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
      const answer = await fetch(`${target}${url.pathname}${url.search}`, {
        method: request.method,
        headers,
        body,
        redirect: 'manual',
      });
      if (url.pathname === '/api/shared' && request.method === 'GET' && answer.ok && proxy.rewriteShared) {
        const changed = proxy.rewriteShared(await answer.json());
        return Response.json(changed, { status: answer.status });
      }
      if (!isData || !answer.ok || (proxy.flipDataByte < 0 && proxy.cutDataAfter < 0)) return answer;
      const bytes = new Uint8Array(await answer.arrayBuffer());
      if (proxy.flipDataByte >= 0 && proxy.flipDataByte < bytes.length) bytes[proxy.flipDataByte]! ^= 1;
      if (proxy.cutDataAfter < 0) return new Response(bytes, { status: answer.status, headers: answer.headers });
      const head = bytes.slice(0, proxy.cutDataAfter);
      const hanging = new ReadableStream<Uint8Array>({ start: (controller) => controller.enqueue(head) });
      return new Response(hanging, { status: answer.status, headers: answer.headers });
    },
  });
  proxy.url = `http://127.0.0.1:${server.port}`;
  return proxy;
}

/** Starts the CLI without waiting for it (to kill it half-way). */
export function spawnCli(cli: Cli, password: string, args: string[], env: Record<string, string> = {}) {
  return Bun.spawn([process.execPath, MAIN, ...args], {
    env: { ...process.env, SEALBOX_CONFIG_DIR: cli.dir, SEALBOX_PASSWORD: password, ...env },
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
  });
}

/** `length` random bytes (getRandomValues fills at most 64 KiB a call). */
export function random(length: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(length);
  for (let at = 0; at < length; at += 65_536)
    bytes.set(crypto.getRandomValues(new Uint8Array(Math.min(65_536, length - at))), at);
  return bytes;
}

/** `sealbox webdav` started as `cli`'s user, once it has printed where it listens. */
export async function startBridge(cli: Cli, password: string, davPassword: string) {
  const child = spawnCli(cli, password, ['webdav', '--json'], { SEALBOX_WEBDAV_PASSWORD: davPassword });
  const reader = child.stdout.getReader();
  let printed = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`the bridge stopped: ${await new Response(child.stderr).text()}`);
    printed += new TextDecoder().decode(value);
    try {
      const url = JSON.parse(printed).url as string;
      reader.releaseLock();
      return { child, url };
    } catch {
      // not whole yet
    }
  }
}

/** The environment that gives rclone a remote `sb:` on the bridge at `url` (no config file). */
export async function rcloneRemote(url: string, davPassword: string, configDir: string): Promise<Record<string, string>> {
  const obscure = Bun.spawn(['rclone', 'obscure', davPassword], { stdout: 'pipe' });
  const obscured = (await new Response(obscure.stdout).text()).trim();
  return {
    RCLONE_CONFIG_SB_TYPE: 'webdav',
    RCLONE_CONFIG_SB_URL: `${url}/`,
    RCLONE_CONFIG_SB_VENDOR: 'other',
    RCLONE_CONFIG_SB_USER: 'sealbox',
    RCLONE_CONFIG_SB_PASS: obscured,
    RCLONE_CONFIG_DIR: configDir,
  };
}
