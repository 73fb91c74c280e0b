import { describe, expect, test } from 'bun:test';
import { clientIp } from './client-ip.ts';
import { clearedSessionCookie, readCookie, sessionCookie } from './cookies.ts';

describe('session cookie', () => {
  test('attributes of the contract; Secure only when asked', () => {
    expect(sessionCookie('tok', 30 * 86_400_000, { secure: false })).toBe(
      'sealbox_session=tok; Path=/; Max-Age=2592000; HttpOnly; SameSite=Lax',
    );
    expect(sessionCookie('tok', 1000, { secure: true })).toEndWith('; Secure');
    expect(clearedSessionCookie({ secure: false })).toStartWith('sealbox_session=; Path=/; Max-Age=0');
  });

  test('reads one cookie among several', () => {
    expect(readCookie('a=1; sealbox_session=xyz; b=2', 'sealbox_session')).toBe('xyz');
    expect(readCookie('sealbox_session_old=1', 'sealbox_session')).toBeUndefined();
    expect(readCookie('sealbox_session=', 'sealbox_session')).toBeUndefined();
    expect(readCookie(null, 'sealbox_session')).toBeUndefined();
  });
});

describe('client address', () => {
  const server = { requestIP: () => ({ address: '10.0.0.2' }) };
  const request = new Request('http://x/', { headers: { 'x-forwarded-for': '1.1.1.1, 2.2.2.2' } });
  test('the socket address unless TRUST_PROXY', () => {
    expect(clientIp(request, server, false)).toBe('10.0.0.2');
    expect(clientIp(request, null, false)).toBe('unknown');
  });
  test('behind a trusted proxy, the entry the proxy appended (the last)', () => {
    expect(clientIp(request, server, true)).toBe('2.2.2.2');
    expect(clientIp(new Request('http://x/'), server, true)).toBe('10.0.0.2');
  });
});
