import { newFileNonce, toBase64 } from '@sealbox/crypto';
import { patternBytes, postFile, postUpload, sealContent, type Encrypted } from '../files/harness.ts';
import type { RouteMatrix } from './context.ts';
import { form, reusable } from './fixtures.ts';
import { full, ITEM_WRITE, type Row } from './outcomes.ts';

/** Deleting a version: the owner's alone; anyone else who may see the file's history is refused. */
const OWNER_DELETES = full({ ...ITEM_WRITE, editor: 'forbidden', 'editor link': 'forbidden' });

/**
 * A file's versions (docs/protocol.md "Versions"): the owner, editors and editor links list,
 * download, restore and upload them; viewers see the newest content only; the owner deletes.
 * The rows' ids are `fileId/versions/versionId`, a random one of the same shape for the misses.
 */
export function versionRows({ alice, W }: RouteMatrix): Row[] {
  /** New content for a file, sealed under its K with a fresh fileNonce: the metadata and the blob. */
  const newContent = async (file: Encrypted, seed: number) => {
    const fileNonce = newFileNonce();
    const cipher = await sealContent(file.key, fileNonce, patternBytes(150, seed));
    return { meta: { versionOf: file.id, fileNonce: toBase64(fileNonce), size: cipher.byteLength }, cipher };
  };
  const files = new Map<string, Encrypted>();
  /** A fresh file of alice's in W. */
  const freshFile = async () => {
    const made = await postFile(alice, W, 100, 7);
    files.set(made.id, made);
    return made.id;
  };
  /** A fresh file of alice's in W with one earlier version. */
  const withVersion = async () => {
    const id = await freshFile();
    const { meta, cipher } = await newContent(files.get(id)!, 8);
    const sent = await postUpload(alice.browser, meta, cipher);
    if (sent.status !== 201) throw new Error(`version: ${sent.status} ${JSON.stringify(sent.body)}`);
    const listed = await alice.browser.get(`/api/file/${id}/versions`);
    return `${id}/versions/${listed.body.versions[0].id}`;
  };
  const aVersion = reusable(withVersion);
  const randomVersion = () => `${crypto.randomUUID()}/versions/${crypto.randomUUID()}`;
  const fileOf = (id: string) => id.slice(0, id.indexOf('/'));
  return [
    {
      route: 'GET /api/file/:id/versions',
      expect: ITEM_WRITE,
      target: async (fresh) => fileOf(await aVersion(fresh)),
      build: (_c, id) => ({ path: `/api/file/${id}/versions` }),
    },
    {
      route: 'GET /api/file/:id/versions/:versionId/data',
      expect: ITEM_WRITE,
      target: aVersion,
      randomId: randomVersion,
      build: (_c, id) => ({ path: `/api/file/${id}/data`, headers: { range: 'bytes=0-9' } }),
    },
    {
      route: 'POST /api/file/:id/versions/:versionId/restore',
      expect: ITEM_WRITE,
      changes: true,
      target: aVersion,
      randomId: randomVersion,
      build: (_c, id) => ({ path: `/api/file/${id}/restore`, json: {} }),
    },
    {
      route: 'DELETE /api/file/:id/versions/:versionId',
      expect: OWNER_DELETES,
      changes: true,
      target: aVersion,
      randomId: randomVersion,
      build: (_c, id) => ({ path: `/api/file/${id}` }),
    },
    {
      route: 'POST /api/upload',
      label: 'a new version',
      expect: ITEM_WRITE,
      changes: true,
      target: reusable(freshFile),
      build: async (_c, id) => {
        // A random id names no file: any key will do for a request refused before it is read.
        const file = files.get(id) ?? { ...[...files.values()][0]!, id };
        const { meta, cipher } = await newContent(file, 9);
        return { path: '/api/upload', body: form({ metadata: JSON.stringify(meta), file: new Blob([cipher]) }) };
      },
    },
  ];
}
