/** What Elysia hands us as `server`: only requestIP is used. */
export interface IpSource {
  requestIP(request: Request): { address: string } | null;
}

/**
 * The address rate limits are counted by. Behind a reverse proxy (TRUST_PROXY) that is the last
 * X-Forwarded-For entry, the one our proxy appended: earlier entries come from the client and
 * can be anything. Without TRUST_PROXY the header is ignored entirely.
 */
export function clientIp(request: Request, server: IpSource | null | undefined, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers.get('x-forwarded-for');
    const last = forwarded?.split(',').at(-1)?.trim();
    if (last) return addressKey(last.slice(0, 64));
  }
  const address = server?.requestIP(request)?.address;
  return address ? addressKey(address) : 'unknown';
}

/**
 * One rate-limit subject per client: an IPv4 address, or the /64 network of an IPv6 one (a
 * single host is usually handed a whole /64, so counting addresses would let it pick 2^64 of
 * them). IPv4-mapped IPv6 addresses count as their IPv4 address. Anything else is kept as it is.
 */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1]!;
  const groups = ipv6Groups(address);
  return groups ? `${groups.slice(0, 4).join(':')}::/64` : address;
}

/** The eight 16-bit groups of an IPv6 address, lower case without leading zeros; null if it is not one. */
function ipv6Groups(address: string): string[] | null {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!bare.includes(':') || !/^[0-9a-f:.]+$/i.test(bare)) return null;
  const halves = bare.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string | undefined) => (part ? part.split(':') : []);
  const head = parse(halves[0]);
  const tail = parse(halves[1]);
  // An embedded IPv4 tail (::ffff:1.2.3.4 forms other than the mapped one) fills two groups.
  const last = tail.length > 0 ? tail : head;
  const v4 = last.at(-1)?.includes('.') ? last.pop()! : undefined;
  if (v4 !== undefined) {
    const bytes = v4.split('.').map(Number);
    if (bytes.length !== 4 || bytes.some((b) => !Number.isInteger(b) || b > 255)) return null;
    last.push(((bytes[0]! << 8) | bytes[1]!).toString(16), ((bytes[2]! << 8) | bytes[3]!).toString(16));
  }
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  if (groups.some((g) => !/^[0-9a-f]{1,4}$/i.test(g))) return null;
  return groups.map((g) => Number.parseInt(g, 16).toString(16));
}
