/**
 * A small typed RPC over postMessage. The worker side exposes a plain object of
 * functions; the client's `call` infers argument and result types from it, so a
 * method renamed in the worker breaks the build at every caller.
 */

/** Parameter lists vary per method; `never[]` accepts every one of them. */
export type RpcMethods = Record<string, (...args: never[]) => unknown>;

export interface RpcRequest {
  id: number;
  method: string;
  args: unknown[];
}

export type RpcResponse =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: { name: string; message: string; code?: string } };

/** The part of Worker / MessagePort / DedicatedWorkerGlobalScope the RPC needs. */
export interface RpcEndpoint {
  postMessage(message: unknown, transfer: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
}

/** Rejection of a remote call. `code` is kept from errors that carry one (CryptoError). */
export class RpcError extends Error {
  readonly code: string | undefined;
  constructor(message: string, code?: string, name = 'RpcError') {
    super(message);
    this.name = name;
    this.code = code;
  }
}

/** Values whose buffers a sender gave up (`transfer`), by the value handed to `call` or returned. */
const marked = new WeakMap<object, Transferable[]>();

/**
 * Marks `value` so that `buffers` move to the other side of the call instead of being copied:
 * the sender gives them up (they are detached here afterwards). Use it where a large buffer is
 * handed over and never read again (a listing's bytes, a decrypted image). Anything not marked is
 * copied, so a caller's buffer is still whole after a call.
 */
export function transfer<T extends object>(value: T, buffers: Transferable[]): T {
  marked.set(value, buffers);
  return value;
}

/**
 * What moves with a message: the buffers a sender marked with `transfer`, and every MessagePort
 * at the top level or one level deep (a port cannot be copied; a call hands the other side a
 * channel of its own, e.g. for progress events). Nothing else moves.
 */
export function collectTransferables(values: readonly unknown[]): Transferable[] {
  const found = new Set<Transferable>();
  const visit = (value: unknown, depth: number) => {
    if (value === null || typeof value !== 'object') return;
    for (const buffer of marked.get(value) ?? []) found.add(buffer);
    if (typeof MessagePort !== 'undefined' && value instanceof MessagePort) found.add(value);
    else if (depth < 2 && Array.isArray(value)) for (const item of value) visit(item, depth + 1);
    else if (depth < 2 && Object.getPrototypeOf(value) === Object.prototype)
      for (const item of Object.values(value)) visit(item, depth + 1);
  };
  for (const value of values) visit(value, 0);
  return [...found];
}

function serializeError(error: unknown): Extract<RpcResponse, { ok: false }>['error'] {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return { name: error.name, message: error.message, ...(typeof code === 'string' ? { code } : {}) };
  }
  return { name: 'Error', message: String(error) };
}

/**
 * The first message a worker side sends: its script loaded and it listens. The page bounds the
 * wait for it (lib/lazy-worker.ts), since a worker whose script is gone may never say anything.
 */
export const RPC_READY = { ready: true } as const;

/**
 * Worker side: answer requests for `methods` arriving on `endpoint`, after announcing RPC_READY.
 * `around` runs each call (to count what is in flight). Returns an unsubscribe.
 */
export function exposeRpc(
  methods: RpcMethods,
  endpoint: RpcEndpoint,
  around: (method: string, run: () => Promise<unknown>) => Promise<unknown> = (_, run) => run(),
): () => void {
  const onMessage = async (event: MessageEvent) => {
    const { id, method, args } = event.data as RpcRequest;
    let response: RpcResponse;
    let transfer: Transferable[] = [];
    try {
      if (!Object.hasOwn(methods, method)) throw new RpcError(`Unknown method: ${method}`, 'UNKNOWN_METHOD');
      // The arguments arrive untyped from the other side; each method checks what it needs.
      const value = await around(method, async () => methods[method]!(...(args as never[])));
      transfer = collectTransferables([value]);
      response = { id, ok: true, value };
    } catch (error) {
      response = { id, ok: false, error: serializeError(error) };
    }
    endpoint.postMessage(response, transfer);
  };
  endpoint.addEventListener('message', onMessage);
  endpoint.postMessage(RPC_READY, []);
  return () => endpoint.removeEventListener('message', onMessage);
}

export interface RpcClient<M extends RpcMethods> {
  call<K extends keyof M & string>(method: K, ...args: Parameters<M[K]>): Promise<Awaited<ReturnType<M[K]>>>;
  /** Rejects every pending call (e.g. the worker failed to load) and keeps listening. */
  failPending(error: Error): void;
  /** Rejects every pending call and stops listening. */
  close(): void;
}

export function createRpcClient<M extends RpcMethods>(endpoint: RpcEndpoint): RpcClient<M> {
  let nextId = 1;
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();

  const onMessage = (event: MessageEvent) => {
    const response = event.data as RpcResponse;
    const entry = pending.get(response.id);
    if (!entry) return;
    pending.delete(response.id);
    if (response.ok) entry.resolve(response.value);
    else entry.reject(new RpcError(response.error.message, response.error.code, response.error.name));
  };
  endpoint.addEventListener('message', onMessage);

  return {
    call(method, ...args) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
        const request: RpcRequest = { id, method, args };
        try {
          endpoint.postMessage(request, collectTransferables(args));
        } catch (error) {
          pending.delete(id);
          reject(error instanceof Error ? error : new RpcError(String(error)));
        }
      });
    },
    failPending(error) {
      for (const entry of pending.values()) entry.reject(error);
      pending.clear();
    },
    close() {
      endpoint.removeEventListener('message', onMessage);
      this.failPending(new RpcError('Worker closed', 'WORKER_CLOSED'));
    },
  };
}
