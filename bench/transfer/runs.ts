/**
 * The measured transfers, each beside its baseline in the same run: the upload (plain, then the
 * app, then the app alternated with the upload probe), the download and save (plain, then the app), and the app's download alternated with the
 * ceiling probes' service workers (probe-workers.ts).
 */
import { link, rm, stat } from 'node:fs/promises';
import type { BarePage } from './cdp.ts';
import { sha256File } from './files.ts';
import { type Measured, measured } from './measure.ts';
import { byText, downloadFrom, pickFile, PLAIN_UPLOAD, registerWorker } from './page.ts';
import { DECRYPT_SCOPE, DECRYPT_SCRIPT, ENCRYPT_UPLOAD, PASSTHROUGH_SCOPE, PASSTHROUGH_SCRIPT } from './probe-workers.ts';
import { cipherSize, PAIRS, PART_BYTES, SIZE } from './settings.ts';

/** The app's download and save beside the two probes', one round of the alternation. */
export interface ProbePair {
  app: Measured<string>;
  probe: Measured<string>;
  decrypt: Measured<string>;
}

/** The app's upload of the file at `path`: picked in the Upload dialog it starts at once, and ends with the transfers panel's summary (or a row's error). */
async function appUpload(page: BarePage, origin: string, path: string): Promise<Measured<void>> {
  await page.navigate(`${origin}/files`);
  await page.waitFor(byText('button', 'Upload File'));
  await page.eval(`${byText('button', 'Upload File')}.click()`);
  const picker = `document.querySelector('dialog[open] input[type=file][multiple]')`;
  const panel = `document.querySelector('section[aria-label="Transfers"]')`;
  await page.waitFor(picker);
  const app = await measured(async () => {
    await page.setFiles(picker, [path]);
    await page.waitFor(
      `${panel}?.querySelector('[role=status]')?.textContent.includes('1 file uploaded successfully!') || ${panel}?.querySelector('[role=alert]')`,
      900_000,
    );
  });
  const upError = await page.eval<string | null>(`${panel}?.querySelector('[role=alert]')?.textContent ?? null`);
  if (upError) throw new Error(`app upload failed: ${upError}`);
  return app;
}

/** Upload: the plain one first (its value is the item's id), then the app's. */
export async function measureUploads(page: BarePage, origin: string, path: string) {
  await pickFile(page, 'bench-plain', path);
  const plain = await measured(() => page.eval<string>(PLAIN_UPLOAD(PART_BYTES, cipherSize(SIZE))));
  const app = await appUpload(page, origin, path);
  return { plain, app };
}

/** The app's upload beside the upload probe's, one round of the alternation. */
export interface UploadPair {
  app: Measured<void>;
  probe: Measured<string>;
}

/**
 * The upload probe (probe-workers.ts) alternated with the app's upload --pairs times; `firstApp`
 * (the upload already measured) opens the first pair. Each later app upload picks a hard link of
 * the same file under another name, so no upload meets a name already in the folder.
 */
export async function measureUploadPairs(page: BarePage, origin: string, path: string, firstApp: Measured<void>) {
  const probe = async () => {
    await page.navigate(`${origin}/files`);
    await page.waitFor(byText('button', 'Upload File'));
    await pickFile(page, 'bench-probe', path);
    return measured(() => page.eval<string>(ENCRYPT_UPLOAD(PART_BYTES, SIZE, 'bench-probe')));
  };
  const pairs: UploadPair[] = [{ app: firstApp, probe: await probe() }];
  while (pairs.length < PAIRS) {
    const alias = path.replace(/(\.bin)?$/, `-${pairs.length + 1}.bin`);
    await link(path, alias);
    try {
      const app = await appUpload(page, origin, alias);
      pairs.push({ app, probe: await probe() });
    } finally {
      await rm(alias, { force: true });
    }
  }
  return pairs;
}

/** The app's download and save of the file `name` from its row's menu, timed from the click. */
async function appDownload(page: BarePage, origin: string, name: string): Promise<Measured<string>> {
  await page.navigate(`${origin}/files`);
  const row = `[...document.querySelectorAll('.file-row')].find((r) => r.textContent.includes(${JSON.stringify(name)}))`;
  await page.waitFor(row, 30_000);
  await page.eval(
    `${row}.querySelector('button[aria-label^="Actions for"]').dispatchEvent(new PointerEvent('pointerdown', { bubbles: true, button: 0, pointerType: 'mouse' }))`,
  );
  await page.waitFor(`${byText('[role=menuitem]', 'Download')}`);
  return measured(() => page.download(() => page.eval(`${byText('[role=menuitem]', 'Download')}.click()`)));
}

/**
 * Download and save: plain (the server's attachment of the plain upload `plainId`), then the app
 * (service worker) of the file `name`, whose saved copy must be the original, byte for byte.
 */
export async function measureDownloads(page: BarePage, origin: string, plainId: string, name: string, original: string) {
  const plain = await measured(() => downloadFrom(page, `/api/file/data/${plainId}`));
  const app = await appDownload(page, origin, name);
  const saved = (await stat(app.value)).size;
  if (saved !== SIZE) throw new Error(`app download saved ${saved} bytes, expected ${SIZE}`);
  if ((await sha256File(app.value)) !== original) throw new Error('app download differs from the original');
  return { plain, app };
}

/**
 * The ceiling probes against the app's download, alternated --pairs times so that each app figure
 * has a probe beside it; `firstApp` (the download already measured) opens the first pair. The
 * passthrough reads the plain upload `plainId`; the decrypting probe reads the bench's own
 * ciphertext at `cipherPath`, uploaded here as it is (not timed).
 */
export async function measureProbePairs(
  page: BarePage,
  files: { origin: string; name: string; plainId: string; cipherPath: string; original: string },
  firstApp: Measured<string>,
): Promise<ProbePair[]> {
  await registerWorker(page, PASSTHROUGH_SCRIPT, PASSTHROUGH_SCOPE, 'benchPassthrough');
  await pickFile(page, 'bench-cipher', files.cipherPath);
  const cipherId = await page.eval<string>(PLAIN_UPLOAD(PART_BYTES, cipherSize(SIZE), 'bench-cipher'));
  await rm(files.cipherPath, { force: true });
  await registerWorker(page, DECRYPT_SCRIPT, DECRYPT_SCOPE, 'benchDecrypt');
  const decrypting = () => measured(() => downloadFrom(page, `${DECRYPT_SCOPE}${cipherId}`));
  const passthrough = () => measured(() => downloadFrom(page, `${PASSTHROUGH_SCOPE}${files.plainId}`));

  const probe1 = await passthrough();
  const probeSize = (await stat(probe1.value)).size;
  if (probeSize !== cipherSize(SIZE)) throw new Error(`passthrough saved ${probeSize} bytes, expected ${cipherSize(SIZE)}`);
  await rm(probe1.value, { force: true });
  await rm(firstApp.value, { force: true });
  const decrypt1 = await decrypting();
  const decryptSize = (await stat(decrypt1.value)).size;
  if (decryptSize !== SIZE) throw new Error(`passthrough + decrypt saved ${decryptSize} bytes, expected ${SIZE}`);
  if ((await sha256File(decrypt1.value)) !== files.original) throw new Error('passthrough + decrypt differs from the original');
  await rm(decrypt1.value, { force: true });
  const pairs = [{ app: firstApp, probe: probe1, decrypt: decrypt1 }];
  while (pairs.length < PAIRS) {
    const app = await appDownload(page, files.origin, files.name);
    await rm(app.value, { force: true });
    const probe = await passthrough();
    await rm(probe.value, { force: true });
    const decrypt = await decrypting();
    await rm(decrypt.value, { force: true });
    pairs.push({ app, probe, decrypt });
  }
  return pairs;
}
