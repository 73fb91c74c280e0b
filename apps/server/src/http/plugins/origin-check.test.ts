import { describe, expect, test } from 'bun:test';
import { Elysia } from 'elysia';
import { originCheck } from './origin-check.ts';
import { errorMapping } from './error-mapping.ts';

const silent = { debug() {}, info() {}, warn() {}, error() {} };

function app(publicOrigin: string | undefined) {
  return new Elysia()
    .use(errorMapping(silent))
    .use(originCheck({ publicOrigin }))
    .post('/api/x', () => 'ok');
}

const post = (a: ReturnType<typeof app>, url: string, headers: Record<string, string>) =>
  a.handle(new Request(url, { method: 'POST', headers }));

describe('origin check', () => {
  test('same origin, or no Origin at all, passes; another origin is 403', async () => {
    const a = app(undefined);
    expect((await post(a, 'http://drive.local/api/x', { origin: 'http://drive.local' })).status).toBe(200);
    expect((await post(a, 'http://drive.local/api/x', {})).status).toBe(200);
    expect((await post(a, 'http://drive.local/api/x', { origin: 'http://evil.example' })).status).toBe(403);
    expect((await post(a, 'http://drive.local/api/x', { origin: 'null' })).status).toBe(403);
  });

  test('with PUBLIC_ORIGIN set, a Host chosen by the client does not make its Origin ours', async () => {
    const a = app('https://drive.example');
    expect((await post(a, 'http://evil.example/api/x', { origin: 'http://evil.example' })).status).toBe(403);
    expect((await post(a, 'http://127.0.0.1:3000/api/x', { origin: 'https://drive.example' })).status).toBe(200);
  });
});
