import { createAccount, type Registration } from '@sealbox/crypto';
import { join } from 'node:path';
import { UNLIMITED, type RateLimits } from '../../src/domain/accounts/rate-limits.ts';
import type { createApp, AppDeps } from '../../src/http/app.ts';
import { createDiskBlobStore } from '../../src/infra/blobs/disk-blob-store.ts';
import type { Db } from '../../src/ports/db.ts';
import type { EventBus } from '../../src/ports/event-bus.ts';
import { openAppHarness, type AppHarness } from '../support/app-harness.ts';

export const ORIGIN = 'http://localhost';

/** A fresh, migrated, empty database publishing through `events`. */
export type MakeDb = (events: EventBus) => Promise<{ db: Db; cleanup(): Promise<void> }>;

export interface Harness extends AppHarness {
  app: ReturnType<typeof createApp>;
  browser(options?: BrowserOptions): Browser;
}

export async function openHarness(makeDb: MakeDb, rateLimits: RateLimits = UNLIMITED): Promise<Harness> {
  const base = await openAppHarness('sealbox-accounts-', async (events, dir) => ({
    ...(await makeDb(events)),
    blobs: createDiskBlobStore(join(dir, 'blobs')),
  }));
  const makeApp = (overrides: Partial<AppDeps> = {}) => base.makeApp({ rateLimits, ...overrides });
  const app = makeApp();
  return { ...base, app, makeApp, browser: (options) => new Browser(options?.app ?? app, options) };
}

export interface BrowserOptions {
  app?: { handle(request: Request): Promise<Response> };
  ip?: string;
  userAgent?: string;
  origin?: string | null;
}

type Json = Record<string, unknown> | unknown[] | null;

/** What a call adds to the request: a JSON body (sent with its length) or a raw one, and headers. */
interface CallInit {
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
}

/** A browser as the server sees it: one cookie jar, an address, a User-Agent, an Origin. */
export class Browser {
  cookie: string | undefined;
  /** Share-link access proofs (`sealbox_link_<linkId>` cookies), by cookie name. */
  linkCookies = new Map<string, string>();
  lastSetCookie: string | null = null;

  constructor(
    readonly app: { handle(request: Request): Promise<Response> },
    readonly options: BrowserOptions = {},
  ) {}

  /** The cookies this browser sends: its session, and the proofs of the links it opened. */
  cookies(): string[] {
    return [
      ...(this.cookie ? [`sealbox_session=${this.cookie}`] : []),
      ...[...this.linkCookies].map(([name, value]) => `${name}=${value}`),
    ];
  }

  /**
   * The request this browser would send, without sending it or touching its cookie jar (the route
   * matrix sends the same request from one caller many times).
   */
  prepare(method: string, path: string, init: CallInit = {}): Request {
    const headers: Record<string, string> = {
      'user-agent':
        this.options.userAgent ??
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36',
      'x-forwarded-for': this.options.ip ?? '203.0.113.1',
      ...init.headers,
    };
    const origin = this.options.origin === undefined ? ORIGIN : this.options.origin;
    if (origin !== null && method !== 'GET') headers.origin = origin;
    const jar = this.cookies();
    if (jar.length > 0) headers.cookie = jar.join('; ');
    let body = init.body;
    if (init.json !== undefined) {
      body = JSON.stringify(init.json);
      headers['content-type'] = 'application/json';
      // A real client announces the length; app.handle() would not compute it.
      headers['content-length'] = String(Buffer.byteLength(body));
    }
    return new Request(`${ORIGIN}${path}`, { method, headers, body: body ?? null });
  }

  async request(method: string, path: string, init: CallInit = {}) {
    const response = await this.app.handle(this.prepare(method, path, init));
    this.lastSetCookie = response.headers.get('set-cookie');
    const match = this.lastSetCookie?.match(/^sealbox_session=([^;]*)/);
    if (match) this.cookie = match[1] === '' ? undefined : match[1];
    const proof = this.lastSetCookie?.match(/^(sealbox_link_[A-Za-z0-9_-]+)=([^;]*)/);
    if (proof) {
      if (proof[2] === '') this.linkCookies.delete(proof[1]!);
      else this.linkCookies.set(proof[1]!, proof[2]!);
    }
    return response;
  }

  /** Status and parsed JSON body (null for an empty body). */
  async call(method: string, path: string, init: CallInit = {}): Promise<{ status: number; body: any; response: Response }> {
    const response = await this.request(method, path, init);
    const text = await response.text();
    return { status: response.status, body: text === '' ? null : (JSON.parse(text) as Json), response };
  }

  get = (path: string) => this.call('GET', path);
  post = (path: string, json?: unknown) => this.call('POST', path, json === undefined ? {} : { json });
  put = (path: string, json?: unknown) => this.call('PUT', path, json === undefined ? {} : { json });
  delete = (path: string) => this.call('DELETE', path);
}

/**
 * Real registration payloads from @sealbox/crypto are slow to make (an RSA-4096 pair, argon2id),
 * so one is made per run and reused under different usernames.
 */
let material: Promise<Registration> | undefined;
export function registrationMaterial(): Promise<Registration> {
  material ??= createAccount('correct horse battery staple').then((account) => account.registration);
  return material;
}

let counter = 0;
export function uniqueName(prefix = 'user'): string {
  counter += 1;
  return `${prefix}${counter}${Math.floor(Math.random() * 1e4)}`.slice(0, 20);
}

export async function registrationFor(username: string, overrides: Record<string, unknown> = {}) {
  const base = await registrationMaterial();
  return { ...base, username, email: null, ...overrides };
}

/** Registers `username` and signs in with `browser` (its cookie jar keeps the session). */
export async function registerAndLogin(browser: Browser, username: string): Promise<{ id: string; password: string }> {
  const registration = await registrationFor(username);
  const created = await browser.post('/api/register', registration);
  if (created.status !== 201) throw new Error(`register failed: ${created.status} ${JSON.stringify(created.body)}`);
  const login = await browser.post('/api/login', { username, password: registration.password });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${JSON.stringify(login.body)}`);
  return { id: created.body.id as string, password: registration.password };
}

/** Registers and signs in a new user in a fresh browser. */
export async function signedInUser(h: Harness, options: BrowserOptions & { username?: string } = {}) {
  const username = options.username ?? uniqueName();
  const browser = h.browser(options);
  return { browser, username, ...(await registerAndLogin(browser, username)) };
}
