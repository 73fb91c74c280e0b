import { afterAll, beforeAll, expect } from 'bun:test';
import { toBase64 } from '@sealbox/crypto';
import type { Browser } from '../accounts/harness.ts';
import {
  openFilesHarness,
  postFile,
  postFolder,
  type Encrypted,
  type FilesHarness,
  type Made,
  type MakeFilesEnv,
} from '../files/harness.ts';
import { keyedUser, snapshot, withLink, type KeyedUser } from './harness.ts';

export const HOUR = 60 * 60 * 1000;
export const b64 = (n: number) => toBase64(new Uint8Array(n).fill(1));
export const ids = (files: Array<{ id: string }>) => files.map((f) => f.id);
export const partVia = (browser: Browser, uploadId: string, n: number, bytes: Uint8Array<ArrayBuffer>, linkId: string) =>
  browser.call('PUT', withLink(`/api/upload/${uploadId}/part/${n}`, linkId), {
    body: bytes,
    headers: { 'content-type': 'application/octet-stream', 'content-length': String(bytes.byteLength) },
  });

/**
 * What the parts of the sharing suite (sharing.suite.ts) share: one harness, three users and a
 * tree of alice's, made before the first test. The parts run one after another over them, in
 * order; a test may rely on shares an earlier one made (bob's shared list has several entries).
 */
export interface SharingSuite {
  h: FilesHarness;
  alice: KeyedUser;
  bob: KeyedUser;
  carol: KeyedUser;
  /** alice: F/{a/{file1}, file0}, G/, H (a file at the top). */
  F: Made;
  A: Made;
  G: Made;
  file0: Encrypted;
  file1: Encrypted;
  H: Encrypted;
  /** Runs `fn` and checks it changed nothing: items, parts, quota, blobs, access entries, links. */
  unchanged(fn: () => Promise<void>): Promise<void>;
  /** The events delivered so far whose fields equal `match`'s. */
  delivered(match: Record<string, unknown>): Promise<FilesHarness['delivered']>;
}

/** Opens the harness before the suite's first test and closes it after its last. */
export function openSharingSuite(makeEnv: MakeFilesEnv): SharingSuite {
  const suite = {
    async unchanged(fn: () => Promise<void>) {
      const before = await snapshot(suite.h);
      await fn();
      expect(await snapshot(suite.h)).toEqual(before);
    },
    async delivered(match: Record<string, unknown>) {
      await Bun.sleep(5);
      return suite.h.delivered.filter((e) =>
        Object.entries(match).every(
          ([k, v]) => JSON.stringify((e as unknown as Record<string, unknown>)[k]) === JSON.stringify(v),
        ),
      );
    },
  } as SharingSuite;
  beforeAll(async () => {
    const h = await openFilesHarness(makeEnv);
    suite.h = h;
    const [alice, bob, carol] = [await keyedUser(h), await keyedUser(h), await keyedUser(h)];
    const F = await postFolder(alice, null, 'F');
    const A = await postFolder(alice, F, 'a');
    const file0 = await postFile(alice, F, 1000, 1, 'file0');
    const file1 = await postFile(alice, A, 2000, 2, 'file1');
    const G = await postFolder(alice, null, 'G');
    const H = await postFile(alice, null, 10, 3, 'H');
    Object.assign(suite, { alice, bob, carol, F, A, G, file0, file1, H });
  });
  afterAll(async () => {
    await suite.h?.cleanup();
  });
  return suite;
}
