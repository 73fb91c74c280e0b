import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const toast = vi.hoisted(() => vi.fn());
vi.mock('@sealbox/ui', async (importOriginal) => ({ ...(await importOriginal<typeof import('@sealbox/ui')>()), toast }));

import {
  TOO_MANY_REQUESTS,
  apiFetch,
  resetAnswerRules,
  retryAfterSeconds,
  setUnauthorizedHandler,
  tooManyRequestsText,
} from './api.ts';

const respond = (status: number) => vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(null, { status }));

beforeEach(() => {
  resetAnswerRules();
  toast.mockClear();
});
afterEach(() => {
  setUnauthorizedHandler(undefined);
  vi.useRealTimers();
});

describe('API answer rules', () => {
  it('shows the rate-limit toast for a 429 from any endpoint', async () => {
    respond(429);
    const response = await apiFetch('/api/check?username=x');
    expect(response.status).toBe(429);
    expect(toast).toHaveBeenCalledWith(TOO_MANY_REQUESTS, 'error');
    expect(TOO_MANY_REQUESTS).toBe('You are sending too many requests. Please slow down.');
  });

  it('says when to try again from the Retry-After header', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(null, { status: 429, headers: { 'Retry-After': '30' } }));
    await apiFetch('/api/login', { method: 'POST' });
    expect(toast).toHaveBeenCalledWith('You are sending too many requests. Please slow down. Try again in 30 seconds.', 'error');
  });

  it('reads Retry-After as seconds or a date, and words the wait', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterSeconds('30', now)).toBe(30);
    expect(retryAfterSeconds('Thu, 01 Jan 2026 00:02:00 GMT', now)).toBe(120);
    expect(retryAfterSeconds('Wed, 31 Dec 2025 23:59:00 GMT', now)).toBeUndefined();
    expect(retryAfterSeconds('soon', now)).toBeUndefined();
    expect(retryAfterSeconds(null, now)).toBeUndefined();
    expect(tooManyRequestsText(undefined)).toBe(TOO_MANY_REQUESTS);
    expect(tooManyRequestsText(1)).toBe(`${TOO_MANY_REQUESTS} Try again in 1 second.`);
    expect(tooManyRequestsText(60)).toBe(`${TOO_MANY_REQUESTS} Try again in 1 minute.`);
    expect(tooManyRequestsText(900)).toBe(`${TOO_MANY_REQUESTS} Try again in 15 minutes.`);
  });

  it('shows it once for a burst, again after the toast has gone', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    respond(429);
    await apiFetch('/api/a');
    await apiFetch('/api/b', { method: 'PUT' });
    expect(toast).toHaveBeenCalledTimes(1);
    vi.setSystemTime(Date.now() + 3001);
    await apiFetch('/api/c');
    expect(toast).toHaveBeenCalledTimes(2);
  });

  it('shows nothing for other statuses and reports 401 to the auth handler', async () => {
    const handler = vi.fn();
    setUnauthorizedHandler(handler);
    respond(200);
    await apiFetch('/api/profile');
    respond(401);
    await apiFetch('http://localhost/api/files', { method: 'delete' });
    expect(toast).not.toHaveBeenCalled();
    expect(handler).toHaveBeenCalledOnce();
    expect(handler).toHaveBeenCalledWith({ status: 401, method: 'DELETE', path: '/api/files' });
  });

  it('is the fetcher of the Eden client', async () => {
    const spy = respond(429);
    const { api } = await import('./api.ts');
    const result = await api.api.check.get({ query: { username: 'alice' } });
    expect(result.status).toBe(429);
    expect(spy).toHaveBeenCalled();
    expect(toast).toHaveBeenCalledWith(TOO_MANY_REQUESTS, 'error');
  });
});
