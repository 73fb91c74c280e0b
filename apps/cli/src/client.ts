/**
 * The CLI's API client: Eden treaty over the server's exported `App` type (as the web app's), so
 * calls cannot drift from the server. The session rides as the `sealbox_session` cookie. `answer`
 * turns every failure into a CliError with docs/cli.md's exit code.
 */
import { treaty } from '@elysiajs/eden';
import type { App } from '@sealbox/server';
import { CliError, EXIT } from './cli-error.ts';

export const SESSION_COOKIE = 'sealbox_session';

/** The client, sending `cookie` (a session, a link's access proof) with every call. */
export function apiClient(server: string, cookie?: string) {
  return treaty<App>(server, cookie ? { headers: { cookie } } : {});
}

export type Api = ReturnType<typeof apiClient>;

/**
 * A connection: the typed client, and what byte calls need besides. Signed in (`cookie` holds the
 * session), or a link holder's (`linkId` goes with every files call; `cookie` holds the link's
 * access proof, if it has a password).
 */
export interface Connection {
  server: string;
  cookie: string;
  linkId?: string;
  api: Api;
}

export function connect(server: string, token: string): Connection {
  const cookie = `${SESSION_COOKIE}=${token}`;
  return { server, cookie, api: apiClient(server, cookie) };
}

/** `?linkId=…` for a link holder's byte calls, '' otherwise. */
export const linkQuery = (conn: Connection) => (conn.linkId ? `?linkId=${encodeURIComponent(conn.linkId)}` : '');

interface EdenResult {
  data: unknown;
  error: { status: unknown; value: unknown } | null;
  response: Response | undefined;
  status: number;
}

/** The server's own text of a refusal (`{ error, message }`), if it sent one. */
function serverText(value: unknown): string | undefined {
  const message = (value as { message?: unknown } | null)?.message;
  return typeof message === 'string' && message !== '' ? message : undefined;
}

/** The CliError for an answer that is not a success. */
export function refusal(status: number, value: unknown, response?: Response): CliError {
  const text = serverText(value);
  if (status === 401) return new CliError(text ?? 'Not signed in: run `sealbox login`.', EXIT.auth);
  if (status === 404) return new CliError(text ?? 'Not found.', EXIT.notFound);
  if (status === 409) return new CliError(text ?? 'That conflicts with what is there.', EXIT.conflict);
  if (status === 429) {
    const after = response?.headers.get('retry-after');
    return new CliError(`Too many requests: try again${after ? ` in ${after} s` : ' later'}.`, EXIT.failed);
  }
  return new CliError(text ?? `The server answered ${status}.`, EXIT.failed, status >= 500);
}

/**
 * The data of an Eden call that succeeded. No response at all is the network's fault (Eden
 * turns a fetch that threw into a 503 without one).
 */
export async function answer<T extends EdenResult>(call: Promise<T>, server: string): Promise<NonNullable<T['data']>> {
  const result = await call;
  if (result.response === undefined) throw new CliError(`Cannot reach ${server}.`, EXIT.network);
  if (result.error) throw refusal(result.status, result.error.value, result.response);
  return result.data as NonNullable<T['data']>;
}

/**
 * A multipart call (POST /api/upload takes only forms; docs/protocol.md "Files and uploads"),
 * sent with fetch: Eden would send a body without a file as JSON.
 */
export async function postForm(conn: Connection, path: string, fields: Record<string, string | Blob>): Promise<unknown> {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.set(name, value);
  let response: Response;
  try {
    response = await fetch(`${conn.server}${path}`, {
      method: 'POST',
      headers: { cookie: conn.cookie },
      body,
    });
  } catch {
    throw new CliError(`Cannot reach ${conn.server}.`, EXIT.network);
  }
  const value: unknown = await response.json().catch(() => undefined);
  if (!response.ok) throw refusal(response.status, value, response);
  return value;
}

/** The value a response sets for cookie `name` (the session, a link's access proof), if any. */
export function cookieSet(response: Response, name: string): string | undefined {
  for (const cookie of response.headers.getSetCookie()) {
    const [pair = ''] = cookie.split(';');
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return undefined;
}
