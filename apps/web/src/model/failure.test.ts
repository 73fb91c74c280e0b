import { describe, expect, it } from 'vitest';
import { linkScope, OWN_SCOPE } from './browse-scope.ts';
import { failureKind, failureText, GONE_TEXT, LINK_GONE_TEXT, OFFLINE_TEXT, passes, UNREACHABLE_TEXT } from './failure.ts';

const coded = (code: string) => Object.assign(new Error('x'), { code });
const LINK = linkScope('AAAAAAAAAAAAAAAAAAAAAA');
const networkError = () => new TypeError('Failed to fetch');

describe('failureKind', () => {
  it('tells a link gone from an item gone by the scope a 404 came in', () => {
    for (const error of [coded('HTTP_404'), coded('NOT_FOUND'), Object.assign(new Error('x'), { status: 404 })]) {
      expect(failureKind(error, LINK, true)).toBe('link-gone');
      expect(failureKind(error, OWN_SCOPE, true)).toBe('gone');
    }
    expect(failureText('link-gone', coded('HTTP_404'))).toBe(LINK_GONE_TEXT);
    expect(failureText('gone', coded('HTTP_404'))).toBe(GONE_TEXT);
  });

  it('an integrity failure stays one, online or not, and is never said to pass', () => {
    for (const code of ['DECRYPT_FAILED', 'TRUNCATED', 'SIZE_MISMATCH', 'NOT_VERIFIED']) {
      expect(failureKind(coded(code), OWN_SCOPE, false)).toBe('integrity');
      expect(passes(failureKind(coded(code), LINK, true))).toBe(false);
    }
    expect(failureText('integrity', coded('DECRYPT_FAILED'))).toBeUndefined();
  });

  it('offline, a server out of reach and a server error pass; each says so', () => {
    expect(failureKind(networkError(), OWN_SCOPE, false)).toBe('offline');
    expect(failureKind(coded('HTTP_503'), OWN_SCOPE, false)).toBe('offline');
    expect(failureKind(networkError(), OWN_SCOPE, true)).toBe('unreachable');
    expect(failureKind(coded('HTTP_502'), LINK, true)).toBe('server');
    expect(failureKind(Object.assign(new Error('x'), { status: 500 }), OWN_SCOPE, true)).toBe('server');
    for (const kind of ['offline', 'unreachable', 'server'] as const) expect(passes(kind)).toBe(true);
    expect(failureText('offline', networkError())).toBe(OFFLINE_TEXT);
    expect(failureText('unreachable', networkError())).toBe(UNREACHABLE_TEXT);
    expect(failureText('server', coded('HTTP_502'))).toBe('The server could not answer (error 502). Try again in a moment.');
  });

  it('anything else is the caller’s to word: a 403, a coded TypeError, no error at all', () => {
    expect(failureKind(coded('HTTP_403'), OWN_SCOPE, true)).toBe('other');
    expect(failureKind(Object.assign(new TypeError('x'), { code: 'BAD_ITEM' }), OWN_SCOPE, true)).toBe('other');
    expect(failureKind(undefined, OWN_SCOPE, true)).toBe('other');
    expect(passes('other')).toBe(false);
  });
});
