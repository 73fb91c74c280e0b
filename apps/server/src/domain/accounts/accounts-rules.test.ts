import { describe, expect, test } from 'bun:test';
import { sniffImage } from './avatar.ts';
import { describeDevice } from './device.ts';
import { checkKdf, KDF_MINIMUM } from './kdf.ts';
import { sessionIdOf } from './sessions.ts';
import { checkBase64, checkEmail, checkUsername } from './validation.ts';
import { DomainError } from '../errors.ts';

const fails = (fn: () => unknown, message?: string | RegExp) => {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(DomainError);
  expect((caught as DomainError).code).toBe('VALIDATION');
  if (message) expect((caught as DomainError).message).toMatch(message);
};

describe('usernames (docs/product.md "Input rules")', () => {
  test.each(['abc', 'a'.repeat(20), 'Åsa', 'jo jo', '名前です', '😀😀😀'])('%p is accepted', (name) => {
    expect(checkUsername(name)).toBe(name);
  });
  test.each(['ab', 'a'.repeat(21), '😀😀', ' abc', 'abc ', 'a\tb', 'a\nbc', 'ab\u0000c', 'ab\u2028c'])(
    '%p is refused',
    (name) => {
      fails(() => checkUsername(name));
    },
  );
});

describe('emails', () => {
  test.each(['a@b.co', 'first.last+tag@mail.example.org'])('%p is accepted', (email) => expect(checkEmail(email)).toBe(email));
  test.each(['a', 'a@b', '@b.co', 'a@.co', 'a b@c.de', 'a@b.co\n', `${'a'.repeat(250)}@b.co`])('%p is refused', (email) => {
    fails(() => checkEmail(email), 'Invalid email!');
  });
  test('empty and null are no email', () => {
    expect(checkEmail('')).toBeNull();
    expect(checkEmail(null)).toBeNull();
  });
});

describe('base64 fields', () => {
  test('exact length, canonical, padded', () => {
    expect(checkBase64('iv', 'AAAAAAAAAAAAAAAA', 12).length).toBe(12);
    fails(() => checkBase64('iv', 'AAAAAAAAAAAAAAA', 12), /base64/);
    fails(() => checkBase64('iv', 'AAAAAAAAAAAAAAAAAAAA', 12), /12 bytes/);
    fails(() => checkBase64('x', 'AB==', 1), /base64/);
    fails(() => checkBase64('x', 'AA-_', 3), /base64/);
    fails(() => checkBase64('x', 'AA', 1), /base64/);
  });
});

describe('KDF parameters', () => {
  test('the minimum itself passes and comes back as a clean copy', () => {
    const extra = { ...structuredClone(KDF_MINIMUM), evil: 1 } as typeof KDF_MINIMUM;
    expect(checkKdf(extra)).toEqual(KDF_MINIMUM);
  });
  test('parallelism 0 is refused', () => {
    fails(() => checkKdf({ ...KDF_MINIMUM, argon2id: { ...KDF_MINIMUM.argon2id, parallelism: 0 } }), /parallelism/);
  });
});

describe('avatar content', () => {
  test.each([
    [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'png'],
    [[0xff, 0xd8, 0xff, 0xdb], 'jpg'],
    [[...Buffer.from('GIF87a')], 'gif'],
    [[...Buffer.from('RIFF'), 0, 0, 0, 0, ...Buffer.from('WEBP')], 'webp'],
    [[...Buffer.from('RIFF'), 0, 0, 0, 0, ...Buffer.from('WAVE')], null],
    [[...Buffer.from('<svg ')], null],
    [[0x89, 0x50, 0x4e], null],
    [[], null],
  ] as Array<[number[], string | null]>)('%j is %p', (bytes, type) => {
    expect(sniffImage(new Uint8Array(bytes))).toBe(type as never);
  });
});

describe('devices', () => {
  test.each([
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36', 'Chrome on Linux'],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36 Edg/140.0',
      'Edge on Windows',
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15',
      'Safari on macOS',
    ],
    [
      'Mozilla/5.0 (Linux; Android 15) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Mobile Safari/537.36',
      'Chrome on Android',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1',
      'Safari on iOS',
    ],
    ['curl/8.5.0', 'Unknown device'],
    [null, 'Unknown device'],
  ])('%p is %p', (ua, device) => expect(describeDevice(ua)).toBe(device));
});

describe('session tokens', () => {
  test('only 43-character base64url tokens name a session; the id is their SHA-256', () => {
    const token = Buffer.from(new Uint8Array(32).fill(1)).toString('base64url');
    expect(sessionIdOf(token)).toBe(new Bun.CryptoHasher('sha256').update(token).digest('hex'));
    for (const bad of ['', 'short', `${token}=`, `${token.slice(0, 42)}+`, `${token}A`]) expect(sessionIdOf(bad)).toBeNull();
  });
});
