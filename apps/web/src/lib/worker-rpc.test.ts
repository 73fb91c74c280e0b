import { afterEach, describe, expect, it } from 'vitest';
import { createRpcClient, exposeRpc, RpcError, type RpcEndpoint } from './worker-rpc.ts';

class CodedError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'CryptoError';
  }
}

const methods = {
  add: (a: number, b: number) => a + b,
  reverse: async (bytes: Uint8Array) => bytes.slice().reverse(),
  fail: (): never => {
    throw new CodedError('BAD_LINK_KEY', 'the link key must be 32 bytes');
  },
};

const channels: MessageChannel[] = [];
afterEach(() => {
  for (const channel of channels.splice(0)) {
    channel.port1.close();
    channel.port2.close();
  }
});

function connect() {
  const channel = new MessageChannel();
  channels.push(channel);
  exposeRpc(methods, channel.port2 as unknown as RpcEndpoint);
  const client = createRpcClient<typeof methods>(channel.port1 as unknown as RpcEndpoint);
  channel.port1.start();
  channel.port2.start();
  return client;
}

describe('worker RPC', () => {
  it('returns results with the types of the exposed methods', async () => {
    const client = connect();
    const sum: number = await client.call('add', 2, 3);
    expect(sum).toBe(5);
  });

  it('transfers ArrayBuffers instead of copying them', async () => {
    const client = connect();
    const input = new Uint8Array([1, 2, 3]);
    const output = await client.call('reverse', input);
    expect([...output]).toEqual([3, 2, 1]);
    expect(input.buffer.byteLength).toBe(0); // detached: it moved to the other side
  });

  it('rejects with the error code of the remote error', async () => {
    const client = connect();
    const error = await client.call('fail').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect((error as RpcError).code).toBe('BAD_LINK_KEY');
    expect((error as RpcError).message).toBe('the link key must be 32 bytes');
    expect((error as RpcError).name).toBe('CryptoError');
  });

  it('rejects unknown methods', async () => {
    const client = createRpcClient<Record<string, () => void>>(connectRaw());
    await expect(client.call('nope')).rejects.toMatchObject({ code: 'UNKNOWN_METHOD' });
  });
});

function connectRaw(): RpcEndpoint {
  const channel = new MessageChannel();
  channels.push(channel);
  exposeRpc(methods, channel.port2 as unknown as RpcEndpoint);
  channel.port1.start();
  channel.port2.start();
  return channel.port1 as unknown as RpcEndpoint;
}
