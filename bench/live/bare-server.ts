/**
 * The floor for bench/live/sockets.ts: a bare Bun.serve WebSocket server (no Elysia, no hub),
 * with the same socket options as Sealbox's, that greets each socket once and then holds it
 * idle. Its resident memory per idle socket is what Bun and uWS cost by themselves. A text frame
 * from any socket is sent back to every socket, one send each as the hub does: the fastest a Bun
 * process writes one event to that many sockets.
 * Run: bun bench/live/bare-server.ts <port>
 */
import type { ServerWebSocket } from 'bun';

const port = Number(process.argv[2]);
const sockets = new Set<ServerWebSocket<undefined>>();
const server = Bun.serve({
  hostname: '127.0.0.1',
  port,
  fetch(request, srv) {
    return srv.upgrade(request, { data: undefined }) ? undefined : new Response('upgrade only', { status: 400 });
  },
  websocket: {
    maxPayloadLength: 1024,
    backpressureLimit: 1024 * 1024,
    closeOnBackpressureLimit: true,
    idleTimeout: 120,
    sendPings: true,
    open(ws) {
      sockets.add(ws);
      ws.send('{"type":"hello","pingIntervalMs":25000}');
    },
    message(_ws, message) {
      const text = JSON.stringify({ type: 'event', event: { kind: 'item.created', itemId: String(message), parentId: null } });
      for (const socket of sockets) socket.send(text);
    },
    close(ws) {
      sockets.delete(ws);
    },
  },
});
console.log(`listening ${server.port}`);
