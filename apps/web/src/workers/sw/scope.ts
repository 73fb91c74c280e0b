/**
 * The parts of ServiceWorkerGlobalScope the service worker uses (the app's TypeScript lib is DOM,
 * not WebWorker), and the scope itself, shared by download.sw.ts and its modules here.
 */
export interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
export interface FetchEvent extends ExtendableEvent {
  request: Request;
  respondWith(response: Response | Promise<Response>): void;
}
export interface ExtendableMessageEvent extends ExtendableEvent {
  data: unknown;
  ports: readonly MessagePort[];
}
export interface SwClient {
  postMessage(message: unknown): void;
}
export interface SwScope {
  location: Location;
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void>; matchAll(options?: { type?: string; includeUncontrolled?: boolean }): Promise<SwClient[]> };
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
  addEventListener(type: 'message', listener: (event: ExtendableMessageEvent) => void): void;
}

export const sw = self as unknown as SwScope;

/** Tokens are the page's crypto.randomUUID(). */
export const TOKEN = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/**
 * Waits (keeping the service worker alive) for the crypto worker's `{ type: 'job', job }` on
 * `port`; `accept` takes it and may refuse it by returning false. Answers `{ type: 'ready' }`
 * once accepted. Gives up after 15 s.
 */
export function awaitJob<T>(
  event: ExtendableMessageEvent,
  port: MessagePort,
  accept: (job: T) => Promise<boolean> | boolean,
): void {
  event.waitUntil(
    new Promise<void>((resolve) => {
      const giveUp = setTimeout(() => {
        port.close();
        resolve();
      }, 15_000);
      port.onmessage = (message: MessageEvent) => {
        const body = message.data as { type?: string; job?: T };
        if (body?.type !== 'job' || !body.job) return;
        clearTimeout(giveUp);
        void Promise.resolve(accept(body.job))
          .catch(() => false)
          .then((accepted) => {
            if (accepted) port.postMessage({ type: 'ready' });
            else port.postMessage({ type: 'refused' });
            port.close();
            resolve();
          });
      };
    }),
  );
}
