import { afterAll, beforeAll, expect } from 'bun:test';
import {
  ciphertextSize,
  encryptMime,
  encryptName,
  newFileNonce,
  newItemId,
  newItemKey,
  partRange,
  toBase64,
  wrapItemKey,
} from '@sealbox/crypto';
import type { Browser } from '../../accounts/harness.ts';
import {
  folderMeta,
  openFilesHarness,
  postUpload,
  space,
  storedBytes,
  type FilesHarness,
  type MakeFilesEnv,
  type Made,
} from '../../files/harness.ts';
import { create, keyedUser, snapshot, withLink, type KeyedUser } from '../harness.ts';

export const MiB = 1024 * 1024;
export const HOUR = 60 * 60 * 1000;
/** A file of 10 MiB goes up in two parts: the smallest that reserves space. */
const PLAIN = 10 * MiB;
export const SIZE = ciphertextSize(PLAIN);
export const PART0 = partRange(0, SIZE).end;

/** The metadata of a file sent in parts, without encrypting its contents (the server never reads them). */
export async function startMeta(parent: Made, plainSize = PLAIN, name = 'big.bin') {
  const id = newItemId();
  const key = newItemKey();
  return {
    id,
    key,
    meta: {
      id,
      parentId: parent.id,
      isDirectory: false,
      ...(await encryptName(key, id, name)),
      ...(await encryptMime(key, id, 'application/octet-stream')),
      ...(await wrapItemKey(parent.key, id, key)),
      fileNonce: toBase64(newFileNonce()),
      size: ciphertextSize(plainSize),
    },
  };
}

/** The reads, calls and checks the parts of the unfinished-uploads suite make of its harness. */
function helpers(suite: { h: FilesHarness; alice: KeyedUser }) {
  async function unchanged(fn: () => Promise<void>) {
    const before = await snapshot(suite.h);
    await fn();
    expect(await snapshot(suite.h)).toEqual(before);
  }

  /** A new top-level folder of alice's. */
  async function folder(label = 'drop'): Promise<Made> {
    const made = await folderMeta(suite.alice.rootKey, null, label);
    await create(suite.alice, made);
    return made;
  }

  /** Starts a file in parts in `parent` as `browser` (through `linkId` if given): the answer. */
  async function start(browser: Browser, parent: Made, linkId?: string, plainSize = PLAIN) {
    // Listed newest first: each start a moment after the one before.
    suite.h.clock.advance(1);
    const made = await startMeta(parent, plainSize);
    const answer = await postUpload(browser, made.meta, undefined, withLink('/api/upload', linkId));
    return { ...made, status: answer.status, body: answer.body, uploadId: answer.body.uploadId as string };
  }

  async function started(browser: Browser, parent: Made, linkId?: string) {
    const upload = await start(browser, parent, linkId);
    expect([upload.status, upload.body.message]).toEqual([201, undefined]);
    return upload;
  }

  /** Part 0 of an upload of SIZE bytes (the server stores what it is sent). */
  const part0 = (browser: Browser, uploadId: string, linkId?: string) => {
    const { start: from, end } = partRange(0, SIZE);
    const bytes = new Uint8Array(end - from).fill(9);
    return browser.call('PUT', withLink(`/api/upload/${uploadId}/part/0`, linkId), {
      body: bytes,
      headers: { 'content-type': 'application/octet-stream', 'content-length': String(bytes.byteLength) },
    });
  };

  const uploadRow = (uploadId: string) =>
    suite.h.db.kysely.selectFrom('uploads').select('id').where('id', '=', uploadId).executeTakeFirst();
  const listedIds = async (user: KeyedUser) =>
    ((await user.browser.get('/api/uploads')).body.uploads as Array<{ uploadId: string }>).map((u) => u.uploadId);
  const revoke = (itemId: string, userId: string, by = suite.alice) =>
    by.browser.call('DELETE', '/api/shared', { json: { type: 'user', fileId: itemId, userId } });

  /** Alice's space is exactly what her stored parts and her listed uploads hold. */
  async function exactSpace() {
    const { uploads } = (await suite.alice.browser.get('/api/uploads?limit=1000')).body as {
      uploads: Array<{ item: { size: number }; received: number }>;
    };
    const held = uploads.reduce((sum, u) => sum + u.item.size - u.received, 0);
    expect(await space(suite.h, suite.alice.id)).toMatchObject({
      used: await storedBytes(suite.h, suite.alice.id),
      reserved: held,
    });
  }
  return { unchanged, folder, start, started, part0, uploadRow, listedIds, revoke, exactSpace };
}

/**
 * What the parts of the unfinished-uploads suite (../unfinished-uploads.suite.ts) share: one
 * harness, three users and the helpers above, made before the first test. The parts run in order.
 */
export type UnfinishedSuite = {
  h: FilesHarness;
  /** The owner of every tree here. */
  alice: KeyedUser;
  /** An editor of alice's folders. */
  bob: KeyedUser;
  /** Signed in, with no entry: only links bring her in. */
  carol: KeyedUser;
} & ReturnType<typeof helpers>;

/** Opens the harness before the suite's first test and closes it after its last. */
export function openUnfinishedSuite(makeEnv: MakeFilesEnv): UnfinishedSuite {
  const suite = {} as UnfinishedSuite;
  Object.assign(suite, helpers(suite));
  beforeAll(async () => {
    suite.h = await openFilesHarness(makeEnv);
    [suite.alice, suite.bob, suite.carol] = [await keyedUser(suite.h), await keyedUser(suite.h), await keyedUser(suite.h)];
  }, 60_000);
  afterAll(async () => {
    await suite.h?.cleanup();
  });
  return suite;
}
