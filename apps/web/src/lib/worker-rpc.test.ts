import { afterEach, describe, expect, it } from 'vitest';
import { createRpcClient, exposeRpc, RpcError, transfer, type RpcEndpoint } from './worker-rpc.ts';

class CodedError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'CryptoError';
  }
}

const held = new Uint8Array([7, 7]);
const handedOver = new Uint8Array([9, 9]);
const methods = {
  add: (a: number, b: number) => a + b,
  keep: () => held,
  give: () => transfer(handedOver, [handedOver.buffer]),
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

  it('copies a buffer the caller did not mark: it is still whole after the call', async () => {
    const client = connect();
    const input = new Uint8Array([1, 2, 3]);
    const output = await client.call('reverse', input);
    expect([...output]).toEqual([3, 2, 1]);
    expect(input.buffer.byteLength).toBe(3);
    expect([...input]).toEqual([1, 2, 3]);
  });

  it('moves a buffer the caller marked with transfer(): it is detached here afterwards', async () => {
    const client = connect();
    const input = new Uint8Array([1, 2, 3]);
    const output = await client.call('reverse', transfer(input, [input.buffer]));
    expect([...output]).toEqual([3, 2, 1]);
    expect(input.buffer.byteLength).toBe(0);
  });

  it('moves a result the worker marked, and only that', async () => {
    const client = connect();
    const kept = await client.call('keep');
    const given = await client.call('give');
    expect([...kept]).toEqual([7, 7]);
    expect([...given]).toEqual([9, 9]);
    expect(held.buffer.byteLength).toBe(2); // copied: the worker still has it
    expect(handedOver.buffer.byteLength).toBe(0); // moved: the worker gave it up
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
