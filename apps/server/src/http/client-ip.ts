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
    if (last) return last.slice(0, 64);
  }
  return server?.requestIP(request)?.address ?? 'unknown';
}
