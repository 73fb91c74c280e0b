/**
 * Keeps the bridge's listing cache fresh (docs/cli.md "WebDAV"): the live socket the web app's tabs
 * use (`GET /api/ws`, docs/protocol.md "Live updates"), authenticated by the CLI's session. An
 * event naming folders forgets those folders' listings; any other event about items, a new socket
 * ("hello": something may have been missed) or a lost one forgets them all. The event of an
 * upload the bridge made itself changes nothing: the bridge put the file in its listing already. Reconnects with a
 * growing pause, at most 30 s.
 */
import type { Connection } from '../client.ts';
import type { Drive } from './drive.ts';

const MAX_PAUSE_MS = 30_000;

/** Bun's WebSocket takes headers (the session cookie rides in one); the DOM typings in scope do not say so. */
const SocketWithHeaders = WebSocket as unknown as new (url: string, options: { headers: Record<string, string> }) => WebSocket;

export function followLiveEvents(conn: Connection, drive: Drive): { stop(): void } {
  let stopped = false;
  let socket: WebSocket | undefined;
  let pause = 1000;
  let pinger: ReturnType<typeof setInterval> | undefined;

  const connect = () => {
    if (stopped) return;
    const url = `${conn.server.replace(/^http/, 'ws')}/api/ws`;
    socket = new SocketWithHeaders(url, { headers: { cookie: conn.cookie } });
    socket.onmessage = (message) => {
      let frame: {
        type?: string;
        pingIntervalMs?: number;
        event?: { kind?: string; itemId?: string; parentId?: string | null; parentIds?: Array<string | null> };
      };
      try {
        frame = JSON.parse(String(message.data));
      } catch {
        return;
      }
      if (frame.type === 'hello') {
        pause = 1000;
        drive.following = true;
        drive.forgetAll();
        clearInterval(pinger);
        pinger = setInterval(() => socket?.send('{"type":"ping"}'), frame.pingIntervalMs ?? 25_000);
        return;
      }
      const event = frame.type === 'event' ? frame.event : undefined;
      // tree.changed only moves the search index's counter on: the item events beside it say
      // which folders changed, and forgetting them again made every PUT list its folder.
      if (!event?.kind || event.kind === 'tree.changed') return;
      // The bridge's own upload: already in its cached listing (drive.ts).
      if (drive.isOwnUpload(event.kind, event.itemId)) return;
      const folders = event.parentIds ?? (event.parentId !== undefined ? [event.parentId] : undefined);
      if (folders) for (const folder of folders) drive.forget(folder);
      else if (event.kind.startsWith('item') || event.kind.startsWith('upload') || event.kind === 'trash.changed')
        drive.forgetAll();
    };
    socket.onclose = () => {
      clearInterval(pinger);
      drive.following = false;
      drive.forgetAll();
      if (stopped) return;
      setTimeout(connect, pause);
      pause = Math.min(pause * 2, MAX_PAUSE_MS);
    };
  };
  connect();
  return {
    stop() {
      stopped = true;
      clearInterval(pinger);
      socket?.close();
    },
  };
}
