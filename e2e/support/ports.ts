/** A TCP port on 127.0.0.1 that was free a moment ago (the OS picks it), for a child process to listen on. */
export function freePort(): number {
  const probe = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response() });
  const port = probe.port;
  void probe.stop(true);
  if (port === undefined) throw new Error('could not find a free port');
  return port;
}
