import { partCount, toBase64 } from '@sealbox/crypto';
import { Browser, partBytes, patternFile, postFile, postFolder, postUpload, type Made } from '../files/harness.ts';
import { sharingAccount, shareWith, type KeyedUser } from '../sharing/harness.ts';
import type { RouteMatrix } from './context.ts';

export const b64 = (n: number) => toBase64(new Uint8Array(n).fill(1));
export const random64 = (n: number) => toBase64(crypto.getRandomValues(new Uint8Array(n)));

/** A multipart body of `fields`, as a browser's form sends it. */
export const form = (fields: Record<string, string | Blob>) => {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  return body;
};

/** One fixture per call that succeeds, one shared by every refused call. */
export function reusable(make: () => Promise<string>) {
  let shared: Promise<string> | undefined;
  return (fresh: boolean) => {
    if (fresh) return make();
    shared ??= make();
    return shared;
  };
}

/** The things rows act on, made as a row asks (in alice's W, or of alice's), each answering its id. */
export function fixtures({ h, alice, erin, W }: RouteMatrix) {
  /** A fresh file of alice's in W. */
  const freshFile = async () => {
    const made = await postFile(alice, W, 100, 5);
    return made.id;
  };
  /** An upload of alice's into W, started (parts not sent), or with every part sent. */
  const firstParts = new Map<string, Uint8Array<ArrayBuffer>>();
  const startUpload = async (sendParts: boolean, by: KeyedUser = alice) => {
    const made = await patternFile(W.key, W.id, 300, 6);
    const started = await postUpload(by.browser, made.meta);
    if (started.status !== 201) throw new Error(`upload start: ${started.status} ${JSON.stringify(started.body)}`);
    const uploadId = started.body.uploadId as string;
    firstParts.set(uploadId, partBytes(made.cipher, 0));
    if (sendParts)
      for (let n = 0; n < partCount(made.cipher.byteLength); n++) {
        const bytes = partBytes(made.cipher, n);
        const sent = await alice.browser.call('PUT', `/api/upload/${uploadId}/part/${n}`, {
          body: bytes,
          headers: { 'content-type': 'application/octet-stream', 'content-length': String(bytes.byteLength) },
        });
        if (sent.status !== 204) throw new Error(`part: ${sent.status}`);
      }
    return uploadId;
  };
  /** A fresh folder of alice's in W (and its key, for grants), optionally shared with erin as viewer. */
  const folders = new Map<string, Made>();
  const folderIn = async () => {
    const made = await postFolder(alice, W);
    folders.set(made.id, made);
    return made;
  };
  const sharedWithErin = async () => {
    const made = await folderIn();
    await shareWith(alice, made, erin.id, false);
    return made.id;
  };
  /** Another signed-in browser of alice's: the id of its session. */
  const aliceSession = async () => {
    const other = new Browser(h.app);
    const { registration } = await sharingAccount();
    await other.post('/api/login', { username: alice.username, password: registration.password });
    const list = await other.get('/api/sessions');
    return (list.body as Array<{ id: string; current: boolean }>).find((s) => s.current)!.id;
  };
  return { freshFile, firstParts, startUpload, folders, folderIn, sharedWithErin, aliceSession };
}

export type Fixtures = ReturnType<typeof fixtures>;
