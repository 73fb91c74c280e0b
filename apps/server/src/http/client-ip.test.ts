import { describe, expect, test } from 'bun:test';
import { addressKey, clientIp } from './client-ip.ts';

describe('addressKey: what per-address rate limits count', () => {
  test('an IPv6 client counts by its /64, however the address is written', () => {
    const key = '2001:db8:aa:bb::/64';
    for (const address of [
      '2001:db8:aa:bb::1',
      '2001:0db8:00aa:00bb:ffff:ffff:ffff:ffff',
      '2001:DB8:AA:BB:1:2:3:4',
      '[2001:db8:aa:bb::9]',
      '2001:db8:aa:bb::1%eth0',
    ]) {
      expect(addressKey(address)).toBe(key);
    }
    expect(addressKey('2001:db8:aa:bc::1')).not.toBe(key);
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('1:2:3:4:5:6:1.2.3.4')).toBe('1:2:3:4::/64');
  });

  test('IPv4 stays itself, IPv4-mapped IPv6 counts as its IPv4, other text is kept', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('unknown')).toBe('unknown');
    expect(addressKey('1::2::3')).toBe('1::2::3');
    expect(addressKey('1:2:3:4:5:6:7:8:9')).toBe('1:2:3:4:5:6:7:8:9');
  });

  test('clientIp applies it to the forwarded address and to the socket address', () => {
    const request = new Request('http://localhost/', { headers: { 'x-forwarded-for': '198.51.100.1, 2001:db8:1:2:3:4:5:6' } });
    const server = { requestIP: () => ({ address: '::ffff:127.0.0.1' }) };
    expect(clientIp(request, server, true)).toBe('2001:db8:1:2::/64');
    expect(clientIp(request, server, false)).toBe('127.0.0.1');
  });
});
