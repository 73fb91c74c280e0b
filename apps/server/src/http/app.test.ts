import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Elysia, t } from 'elysia';
import { DomainError } from '../domain/errors.ts';
import { createDiskBlobStore } from '../infra/blobs/disk-blob-store.ts';
import { createFilesStore } from '../infra/db/files/files-store.ts';
import { createQuotaStore } from '../infra/db/files/quota-store.ts';
import { createAccountRepositories } from '../infra/db/accounts/index.ts';
import { openSqliteDb } from '../infra/db/sqlite/open-sqlite-db.ts';
import { createMemoryEventBus } from '../infra/events/memory-event-bus.ts';
import { createJsonLogger, silentLogger } from '../infra/log/json-logger.ts';
import type { Db } from '../ports/db.ts';
import type { EventBus } from '../ports/event-bus.ts';
import type { BlobStore } from '../ports/blob-store.ts';
import { createApp, type AppDeps } from './app.ts';
import { CONTENT_SECURITY_POLICY } from './plugins/security-headers.ts';

const INDEX_HTML = '<!doctype html><title>Sealbox</title><script type="module" src="/assets/app-3f9a.js"></script>';

let tmp: string;
let webRoot: string;
let db: Db;
let blobs: BlobStore;
let events: EventBus;

function makeApp(overrides: Partial<AppDeps> = {}) {
  const logger = createJsonLogger('info', () => {});
  return createApp({
    db,
    blobs,
    events,
    logger,
    web: { root: webRoot },
    publicOrigin: undefined,
    maxBodyBytes: 10 * 1024 * 1024,
    accounts: createAccountRepositories(db),
    files: createFilesStore(db),
    quota: createQuotaStore(db),
    defaultQuotaBytes: 1024,
    trustProxy: false,
    ...overrides,
  });
}

const get = (app: { handle(r: Request): Promise<Response> }, path: string, init?: RequestInit) =>
  app.handle(new Request(`http://localhost${path}`, init));

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'sealbox-http-'));
  webRoot = join(tmp, 'dist');
  await mkdir(join(webRoot, 'assets'), { recursive: true });
  await writeFile(join(webRoot, 'index.html'), INDEX_HTML);
  await writeFile(join(webRoot, 'assets', 'app-3f9a.js'), 'console.log(1)');
  await writeFile(join(webRoot, 'assets', 'worker-77.mjs'), 'export {}');
  await writeFile(join(webRoot, 'assets', 'argon2-1c.wasm'), new Uint8Array([0, 97, 115, 109]));
  await writeFile(join(webRoot, 'assets', 'style-9.css'), 'body{}');
  await writeFile(join(webRoot, 'preview-sw.js'), 'self.addEventListener("fetch", () => {})');
  await writeFile(join(webRoot, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  await writeFile(join(webRoot, '.env'), 'SECRET=1');
  events = createMemoryEventBus(silentLogger);
  db = await openSqliteDb({ path: ':memory:', events, logger: silentLogger });
  blobs = createDiskBlobStore(join(tmp, 'blobs'));
});

afterAll(async () => {
  await db.close();
  await events.close();
  await rm(tmp, { recursive: true, force: true });
});

function expectSecurityHeaders(response: Response) {
  const h = response.headers;
  expect(h.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
  expect(h.get('content-security-policy')).toContain("frame-ancestors 'none'");
  expect(h.get('content-security-policy')).not.toContain('unsafe-inline');
  expect(h.get('x-content-type-options')).toBe('nosniff');
  expect(h.get('referrer-policy')).toBe('no-referrer');
  expect(h.get('x-frame-options')).toBe('DENY');
  expect(h.get('cross-origin-opener-policy')).toBe('same-origin');
  expect(h.get('permissions-policy')).toContain('camera=()');
}

describe('security headers', () => {
  test.each([
    ['an API route', '/api/health', 200],
    ['a static file', '/assets/app-3f9a.js', 200],
    ['the index fallback', '/files?parentId=abc', 200],
    ['an API 404', '/api/nope', 404],
    ['a refused path', '/..%2f..%2fetc/passwd', 400],
  ])('are on %s', async (_, path, status) => {
    const response = await get(makeApp(), path);
    expect(response.status).toBe(status);
    expectSecurityHeaders(response);
    expect(response.headers.get('strict-transport-security')).toBeNull();
  });

  test('are on validation errors and on unknown methods', async () => {
    const app = makeApp().post('/api/echo', ({ body }) => body, { body: t.Object({ a: t.String() }) });
    const bad = await get(app, '/api/echo', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    expect(bad.status).toBe(400);
    expectSecurityHeaders(bad);
    const unknown = await get(makeApp(), '/somewhere', { method: 'DELETE' });
    expect(unknown.status).toBe(404);
    expectSecurityHeaders(unknown);
  });

  test('HSTS only when the public origin is https', async () => {
    const https = await get(makeApp({ publicOrigin: 'https://drive.example.org' }), '/');
    expect(https.headers.get('strict-transport-security')).toContain('max-age=');
    const http = await get(makeApp({ publicOrigin: 'http://localhost:3000' }), '/');
    expect(http.headers.get('strict-transport-security')).toBeNull();
  });

  test('API answers are never cached', async () => {
    expect((await get(makeApp(), '/api/health')).headers.get('cache-control')).toBe('no-store');
  });
});

describe('error mapping', () => {
  const app = () =>
    makeApp()
      .get('/api/conflict', () => {
        throw new DomainError('CONFLICT', 'Username is already in use');
      })
      .get('/api/quota', () => {
        throw new DomainError('QUOTA_EXCEEDED', 'Not enough storage space');
      })
      .get('/api/totp', () => {
        throw new DomainError('TOTP_REQUIRED', 'Second factor needed');
      })
      .get('/api/crash', () => {
        throw new Error('database password is hunter2');
      })
      .post('/api/echo', ({ body }) => body, { body: t.Object({ name: t.String({ minLength: 3 }) }) });

  test.each([
    ['/api/conflict', 409, 'CONFLICT', 'Username is already in use'],
    ['/api/quota', 402, 'QUOTA_EXCEEDED', 'Not enough storage space'],
    ['/api/totp', 307, 'TOTP_REQUIRED', 'Second factor needed'],
    ['/api/nope', 404, 'NOT_FOUND', 'No such API route'],
  ])('%s -> %d { error: %s }', async (path, status, code, message) => {
    const response = await get(app(), path);
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(await response.json()).toEqual({ error: code, message });
  });

  test('unknown errors are 500 INTERNAL without their message', async () => {
    const response = await get(app(), '/api/crash');
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: 'INTERNAL', message: 'Internal server error' });
  });

  test('schema validation failures are 400 VALIDATION naming the field, not the value', async () => {
    const response = await get(app(), '/api/echo', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'zq' }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: string; message: string };
    expect(body.error).toBe('VALIDATION');
    expect(body.message).toContain('name');
    expect(body.message).not.toContain('zq');
  });

  test('malformed JSON is 400 VALIDATION', async () => {
    const response = await get(app(), '/api/echo', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{oops',
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe('VALIDATION');
  });

  test('unknown non-GET routes are JSON 404', async () => {
    const response = await get(app(), '/api/nope', { method: 'POST' });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'NOT_FOUND', message: 'Not found' });
  });

  test('bodies announced larger than the limit are 413 TOO_LARGE', async () => {
    const small = makeApp({ maxBodyBytes: 1000 }).post('/api/upload', () => 'ok');
    const response = await get(small, '/api/upload', {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream', 'content-length': '1001' },
      body: new Uint8Array(1001),
    });
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: string }).error).toBe('TOO_LARGE');
    expectSecurityHeaders(response);
    const json = await get(
      makeApp().post('/api/echo', () => 'ok'),
      '/api/echo',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(2 * 1024 * 1024) },
        body: '{}'.padEnd(2 * 1024 * 1024, ' '),
      },
    );
    expect(json.status).toBe(413);
  });

  test('outside the upload routes every body is held to the JSON limit, whatever its type', async () => {
    const app = makeApp()
      .put('/api/profile', () => 'ok')
      .put('/api/profile/upload', () => 'ok');
    const big = { 'content-length': String(2 * 1024 * 1024) };
    for (const type of ['text/plain', 'application/octet-stream', 'multipart/form-data; boundary=x']) {
      const response = await get(app, '/api/profile', {
        method: 'PUT',
        headers: { 'content-type': type, ...big },
        body: 'x'.repeat(2 * 1024 * 1024),
      });
      expect(response.status).toBe(413);
    }
    // The avatar route takes binary bodies up to the request limit.
    const avatar = await get(app, '/api/profile/upload', {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream', ...big },
      body: new Uint8Array(2 * 1024 * 1024),
    });
    expect(avatar.status).toBe(200);
  });

  test('a body of unannounced length is refused outside the upload routes', async () => {
    const app = makeApp().put('/api/profile', () => 'ok');
    const response = await get(app, '/api/profile', {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      body: '{}',
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe('VALIDATION');
  });
});

describe('health', () => {
  test('200 with every component ok', async () => {
    const response = await get(makeApp(), '/api/health');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok', db: 'ok', blobs: 'ok', events: 'ok' });
  });

  test('503 naming the failing component', async () => {
    const failing = { ...blobs, health: () => Promise.reject(new Error('disk gone')) };
    const response = await get(makeApp({ blobs: failing }), '/api/health');
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ status: 'degraded', db: 'ok', blobs: 'error', events: 'ok' });
    const dbDown = { ...db, health: () => Promise.reject(new Error('down')) };
    expect(await (await get(makeApp({ db: dbDown }), '/api/health')).json()).toMatchObject({ db: 'error' });
  });
});

describe('web app serving', () => {
  test.each([
    ['/assets/app-3f9a.js', 'text/javascript; charset=utf-8', 'public, max-age=31536000, immutable'],
    ['/assets/worker-77.mjs', 'text/javascript; charset=utf-8', 'public, max-age=31536000, immutable'],
    ['/assets/argon2-1c.wasm', 'application/wasm', 'public, max-age=31536000, immutable'],
    ['/assets/style-9.css', 'text/css; charset=utf-8', 'public, max-age=31536000, immutable'],
    ['/preview-sw.js', 'text/javascript; charset=utf-8', 'no-cache'],
    ['/favicon.svg', 'image/svg+xml', 'no-cache'],
  ])('%s is %s with cache %s', async (path, type, cache) => {
    const response = await get(makeApp(), path);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(type);
    expect(response.headers.get('cache-control')).toBe(cache);
  });

  test.each(['/', '/files?parentId=x', '/share?linkId=abc', '/nonexistent', '/profile/deep/route', '/.env', '/index.html'])(
    'GET %s returns index.html, not cached',
    async (path) => {
      const response = await get(makeApp(), path);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(await response.text()).toBe(INDEX_HTML);
    },
  );

  test('a missing hashed asset is 404, not index.html', async () => {
    const response = await get(makeApp(), '/assets/app-old.js');
    expect(response.status).toBe(404);
  });

  test.each([
    '/../../etc/passwd',
    '/..%2f..%2fetc%2fpasswd',
    '/assets/..%2f..%2f..%2fetc/passwd',
    '/%2e%2e/%2e%2e/etc/passwd',
    '/a%5c..%5c..%5cetc',
    '/x%00.js',
    '/%E0%A4%A',
  ])('path traversal %s never reaches outside the web root', async (path) => {
    const response = await get(makeApp(), path);
    const text = await response.text();
    expect(text).not.toContain('root:');
    expect([200, 400]).toContain(response.status);
    if (response.status === 200) expect(text).toBe(INDEX_HTML);
  });

  test('encoded traversal is refused with 400', async () => {
    const response = await get(makeApp(), '/..%2f..%2fetc%2fpasswd');
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe('VALIDATION');
  });

  test('without a build, GET / answers 503 saying to build the web app', async () => {
    const response = await get(makeApp({ web: { root: join(tmp, 'missing') } }), '/');
    expect(response.status).toBe(503);
    expect(await response.text()).toContain('build:web');
    expectSecurityHeaders(response);
  });

  test('routes added after createApp still win over the catch-all', async () => {
    const app = makeApp().get('/api/things/:id', ({ params }) => ({ id: params.id }));
    expect(await (await get(app, '/api/things/42')).json()).toEqual({ id: '42' });
    const plugin = new Elysia().get('/api/plugin', () => 'plugged');
    expect(await (await get(makeApp().use(plugin), '/api/plugin')).text()).toBe('plugged');
  });
});

describe('request log', () => {
  test('warnings and errors name the route pattern, never the path (a link id stays out of the log)', async () => {
    const lines: string[] = [];
    const linkId = 'Zx9LinkIdInThePath0abA';
    const failing = (error: unknown) => ({
      ...createFilesStore(db),
      link: async () => {
        throw error;
      },
    });
    const logger = createJsonLogger('debug', (line) => lines.push(line));
    const unavailable = new DomainError('UNAVAILABLE', 'Database unavailable', { cause: new Error('connection refused') });
    for (const error of [unavailable, new Error('the store broke')]) {
      const response = await get(makeApp({ logger, files: failing(error) }), `/api/shared/${linkId}`);
      expect(response.status).toBe(error === unavailable ? 503 : 500);
    }
    await Bun.sleep(20);
    const problems = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((e) => e.level !== 'info');
    expect(problems.map((e) => [e.level, e.msg, e.route])).toEqual([
      ['warn', 'dependency unavailable', '/api/shared/:id'],
      ['error', 'unhandled error', '/api/shared/:id'],
    ]);
    expect(lines.join('\n')).not.toContain(linkId);
  });

  test('one JSON line per request: method, route pattern (never the path), status, ms; nothing else', async () => {
    const lines: string[] = [];
    const app = makeApp({ logger: createJsonLogger('debug', (line) => lines.push(line)) }).post('/api/login', () => {
      throw new DomainError('UNAUTHORIZED', 'Invalid username or password.');
    });
    await get(app, '/api/login?username=alice&token=s3cr3t#frag', {
      method: 'POST',
      headers: { cookie: 'sid=topsecretcookie', 'content-type': 'application/json', authorization: 'Bearer abc' },
      body: JSON.stringify({ username: 'alice', password: 'hunter2hunter2' }),
    });
    await get(app, '/files?parentId=123');
    await get(app, '/api/users/search/alicewonder?limit=1');
    await Bun.sleep(20);
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((e) => e.msg === 'request');
    expect(entries.length).toBe(3);
    expect(entries[0]).toMatchObject({ method: 'POST', route: '/api/login', status: 401 });
    expect(entries[1]).toMatchObject({ method: 'GET', route: '/*', status: 200 });
    // A searched name is personal data: the log keeps the route, not the name.
    expect(entries[2]).toMatchObject({ method: 'GET', route: '/api/users/search/:name', status: 404 });
    for (const entry of entries) {
      expect(typeof entry.ms).toBe('number');
      expect(Object.keys(entry).sort()).toEqual(['level', 'method', 'ms', 'msg', 'route', 'status', 'time']);
    }
    // Without the clock's fields: a timestamp or a duration may well contain "123".
    const all = lines
      .map((line) => {
        const { time: _time, ms: _ms, ...rest } = JSON.parse(line) as Record<string, unknown>;
        return JSON.stringify(rest);
      })
      .join('\n');
    for (const secret of [
      'alice',
      'wonder',
      'files',
      's3cr3t',
      'topsecretcookie',
      'hunter2',
      'Bearer',
      'frag',
      'parentId',
      '123',
    ]) {
      expect(all).not.toContain(secret);
    }
  });
});
