/**
 * The users' way to the server: every HTTP call and live socket goes through here, and what each
 * saw is tallied for the report (time to the whole answer per route, statuses, 5xx, network
 * errors, failed checks).
 */
import type { SoakUser } from './users.ts';

let baseUrl = '';

/** Where every call goes: the one instance under test. */
export function useServer(url: string) {
  baseUrl = url;
}

export const tally = {
  latencies: new Map<string, number[]>(),
  statuses: new Map<number, number>(),
  fiveHundreds: [] as string[],
  networkErrors: 0,
  checkFailures: 0,
  failures: [] as string[],
};

function recordLatency(route: string, ms: number) {
  if (!tally.latencies.has(route)) tally.latencies.set(route, []);
  tally.latencies.get(route)!.push(ms);
}

/** "PUT /api/upload/:id/part/:n" from a concrete path. */
function routeOf(method: string, path: string): string {
  const bare = path.split('?')[0]!;
  const route = bare
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, ':id')
    .replace(/\/part\/\d+/, '/part/:n')
    .replace(/\/api\/shared\/[A-Za-z0-9_-]{16,}$/, '/api/shared/:linkId');
  const linkRead = path.includes('linkId=') ? ' (link)' : '';
  return `${method} ${route}${linkRead}`;
}

export async function call(
  method: string,
  path: string,
  init: { cookie?: string; json?: unknown; body?: BodyInit; headers?: Record<string, string> } = {},
): Promise<Response | null> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.cookie) headers.cookie = init.cookie;
  let body = init.body;
  if (init.json !== undefined) {
    body = JSON.stringify(init.json);
    headers['content-type'] = 'application/json';
  }
  const t0 = performance.now();
  try {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      body: body ?? null,
      signal: AbortSignal.timeout(60_000),
    });
    // Time to the whole answer, body included.
    const bytes = new Uint8Array(await response.arrayBuffer());
    const ms = performance.now() - t0;
    const route = routeOf(method, path);
    recordLatency(route, ms);
    tally.statuses.set(response.status, (tally.statuses.get(response.status) ?? 0) + 1);
    if (response.status >= 500)
      tally.fiveHundreds.push(`${route} ${response.status} ${new TextDecoder().decode(bytes).slice(0, 200)}`);
    return new Response(response.status === 204 || response.status === 304 ? null : bytes, {
      status: response.status,
      headers: response.headers,
    });
  } catch (error) {
    tally.networkErrors += 1;
    tally.failures.push(`${method} ${path}: ${String(error)}`);
    return null;
  }
}

export function check(condition: boolean, what: string): boolean {
  if (!condition) {
    tally.checkFailures += 1;
    if (tally.failures.length < 50) tally.failures.push(what);
  }
  return condition;
}

/** (Re)opens the user's live socket, as a tab does; resolves at its hello (or after 10 s, a failed check). */
export function openSocket(user: SoakUser): Promise<void> {
  user.socket?.close();
  const t0 = performance.now();
  return new Promise((resolve) => {
    const socket = new WebSocket(`${baseUrl.replace('http', 'ws')}/api/ws`, {
      headers: { cookie: user.session.cookie },
    } as unknown as string[]);
    const timer = setTimeout(() => {
      check(false, 'socket: no hello in 10 s');
      resolve();
    }, 10_000);
    socket.onmessage = (message) => {
      const data = JSON.parse(String(message.data)) as { type: string };
      if (data.type === 'hello') {
        clearTimeout(timer);
        recordLatency('WS /api/ws (hello)', performance.now() - t0);
        resolve();
      } else user.events += 1;
    };
    socket.onerror = () => tally.networkErrors++;
    user.socket = socket;
  });
}
