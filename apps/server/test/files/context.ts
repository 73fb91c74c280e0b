import { afterAll, beforeAll, expect } from 'bun:test';
import { PART_BYTES, toBase64 } from '@sealbox/crypto';
import {
  openFilesHarness,
  patternFile,
  signedInUser,
  snapshot,
  space,
  storedBytes,
  uploadFile,
  type Encrypted,
  type FilesHarness,
  type MakeFilesEnv,
  type User,
} from './harness.ts';

export const DAY = 24 * 60 * 60 * 1000;
export const b64 = (n: number) => toBase64(new Uint8Array(n).fill(1));

/**
 * What the parts of the files suite (files.suite.ts) share: one harness, two users and a file
 * in parts, made before the first test. The parts run one after another over them, in order.
 */
export interface FilesSuite {
  h: FilesHarness;
  alice: User;
  bob: User;
  /** A multi-part file (3 parts) uploaded by alice at the start. */
  big: Encrypted;
  /** Runs `fn` and checks it changed nothing: rows, quota and stored blobs. */
  unchanged(fn: () => Promise<void>): Promise<void>;
  /** The user's used space is the size of their stored parts. */
  invariant(user: User): Promise<void>;
}

/** Opens the harness before the suite's first test and closes it after its last. */
export function openFilesSuite(makeEnv: MakeFilesEnv): FilesSuite {
  const suite = {
    async unchanged(fn: () => Promise<void>) {
      const before = await snapshot(suite.h);
      await fn();
      expect(await snapshot(suite.h)).toEqual(before);
    },
    async invariant(user: User) {
      const { used } = await space(suite.h, user.id);
      expect(used).toBe(await storedBytes(suite.h, user.id));
    },
  } as FilesSuite;
  beforeAll(async () => {
    const h = await openFilesHarness(makeEnv);
    const alice = await signedInUser(h);
    const bob = await signedInUser(h);
    const big = await patternFile(alice.rootKey, null, 2 * PART_BYTES + 1000, 3, 'big.bin');
    Object.assign(suite, { h, alice, bob, big });
    await uploadFile(alice, big);
  }, 60_000);
  afterAll(async () => {
    await suite.h?.cleanup();
  });
  return suite;
}
