/**
 * What a person does with the account in Chromium, each timed on the page's clock from the click
 * (or the keystroke) to the frame after what it waited for is in the DOM: sign-in to the first page
 * of /files and to the storage meter's figure, the largest folder's first page, a search's
 * results, /shared's list; and the zip of a folder, timed to the download's end (Bun's clock).
 */
import { open, rm } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import type { TestUser } from '../../e2e/support/accounts.ts';

/**
 * Resolves in the page with the time (page clock, ms after `t0`) when `done()` first holds, on
 * the frame after. Runs in the page: everything it uses is passed in or global.
 */
const WAIT_IN_PAGE = `(done, t0) => new Promise((resolve) => {
  const finish = () => requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - t0), 0));
  if (done()) return finish();
  const observer = new MutationObserver(() => {
    if (!done()) return;
    observer.disconnect();
    finish();
  });
  observer.observe(document, { childList: true, subtree: true, characterData: true });
})`;

/**
 * Runs `act` in the page at t0 and times each condition from then (expressions over `document`,
 * written into the script: the app's CSP allows no eval in the page). t0 stays in
 * `window.__timedFrom`, for resource timings read afterwards.
 */
async function timed<K extends string>(page: Page, act: string, conditions: Record<K, string>, timeoutMs = 120_000) {
  const checks = Object.entries(conditions)
    .map(([name, check]) => `${JSON.stringify(name)}: () => (${check})`)
    .join(',\n');
  const script = `(async () => {
    const wait = ${WAIT_IN_PAGE};
    const checks = {${checks}};
    const t0 = performance.now();
    window.__timedFrom = t0;
    const waits = Object.entries(checks).map(([name, done]) => wait(done, t0).then((ms) => [name, ms]));
    (${act})();
    return Object.fromEntries(await Promise.all(waits));
  })()`;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return (await Promise.race([
      page.evaluate(script),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`timed out after ${timeoutMs} ms: ${Object.values<string>(conditions).join(' / ')}`)),
          timeoutMs,
        );
      }),
    ])) as Record<K, number>;
  } finally {
    clearTimeout(timer);
  }
}

const rows = `document.querySelectorAll('.browser__body [data-item-id]')`;
const buttonNamed = (name: string) =>
  `() => [...document.querySelectorAll('.browser__body button.item-name')].find((b) => b.textContent === ${JSON.stringify(name)}).click()`;

export interface SignIn {
  firstPage: number;
  meter: number;
  /** When the server's answer to POST /api/login was in (the password's argon2id is before it). */
  answered: number;
  /** The API calls made from the click on, "path start+duration" in ms. */
  calls: string[];
  /** The meter's text as shown ("26.1 MiB of 10.0 GiB"), and its percent ("0% used"). */
  meterSizes: string;
  meterPercent: string;
}

/** The API calls made since the timed action, "path?query start+duration" in ms from it. */
const API_CALLS = `(() => {
  const t0 = window.__timedFrom;
  return performance.getEntriesByType('resource').filter((r) => r.startTime >= t0 && r.name.includes('/api/'))
    .map((r) => { const u = new URL(r.name); return u.pathname + u.search + ' ' + (r.startTime - t0).toFixed(0) + '+' + r.duration.toFixed(0); });
})()`;

/** From the click on Sign in: the top of /files (`topItems` rows) rendered, and the storage meter's figure. */
export async function signIn(page: Page, baseUrl: string, user: TestUser, topItems: number): Promise<SignIn> {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  const times = await timed(
    page,
    `() => [...document.querySelectorAll('button')].find((b) => b.textContent.trim() === 'Sign in').click()`,
    {
      firstPage: `location.pathname === '/files' && ${rows}.length >= ${topItems}`,
      meter: `(document.querySelector('.storage__sizes')?.textContent ?? '') !== ''`,
    },
  );
  // The API calls from the click on, each "path start+duration" (ms from the click): where the time went.
  const { answered, calls } = (await page.evaluate(`(() => {
    const t0 = window.__timedFrom;
    const api = performance.getEntriesByType('resource').filter((r) => r.startTime >= t0 && r.name.includes('/api/'));
    const login = api.findLast((r) => new URL(r.name).pathname === '/api/login');
    const calls = api.map((r) => new URL(r.name).pathname + ' ' + (r.startTime - t0).toFixed(0) + '+' + r.duration.toFixed(0));
    return { answered: login ? login.responseEnd - t0 : NaN, calls };
  })()`)) as { answered: number; calls: string[] };
  const meterSizes = (await page.locator('.storage__sizes').textContent()) ?? '';
  const meterPercent = (await page.locator('.storage__text span').nth(1).textContent()) ?? '';
  return { ...times, answered, calls, meterSizes, meterPercent };
}

/** From /files' top: a click on `name` → its first page (20 rows of its own), and → the whole folder open. */
export async function openFolder(page: Page, name: string, firstChild: string) {
  await page.locator('.browser__body').getByRole('button', { name, exact: true }).waitFor({ timeout: 60_000 });
  const first = `${rows}.length >= 20 && ${rows}[0].querySelector('.item-name__text')?.textContent.startsWith(${JSON.stringify(firstChild)})`;
  return timed(page, buttonNamed(name), {
    firstPage: first,
    whole: `(${first}) && document.querySelector('.browser__opening') === null`,
  });
}

/** Typing `query` in the search box at once → the first result shown, and → all `expected` of them. */
export async function search(page: Page, query: string, expected: number) {
  const box = page.getByPlaceholder('Search files...');
  await box.waitFor();
  const results = `document.querySelectorAll('[aria-label="Search results"] li')`;
  // React reads the value through the input event, set as the browser's own typing sets it.
  const type = `() => {
    const input = document.querySelector('input[type="search"]');
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(input, ${JSON.stringify(query)});
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }`;
  const timing = timed(page, type, { first: `${results}.length >= 1`, all: `${results}.length >= ${expected}` });
  // Untimed: the screen as the first results show (run.ts: SEARCH_SHOT).
  if (process.env.SEARCH_SHOT) {
    await page.waitForSelector('[aria-label="Search results"] li');
    await page.screenshot({ path: `${process.env.SEARCH_SHOT}-${Date.now()}.png` });
  }
  const times = await timing;
  const found = await page.locator('[aria-label="Search results"] li').count();
  await box.fill('');
  // How the stored index opened on this page (the app's mark): the names record a first search
  // waits for, then the rest, which may still be opening when the first results show.
  const mark = await page
    .waitForFunction(
      () => (performance.getEntriesByName('search:index-opened').at(-1) as PerformanceMark | undefined)?.detail,
      undefined,
      {
        timeout: 30_000,
      },
    )
    .catch(() => undefined);
  const opened = (await mark?.jsonValue()) as Record<string, number> | undefined;
  return { ...times, found, opened };
}

/**
 * A click on the sidebar's 'Shared with me' → its first page rendered (`firstPage` rows), and →
 * every share open (docs/web-files.md "Opening a large folder": the hint gone); answers the count
 * it shows then.
 */
export async function openShared(page: Page, firstPage: number) {
  const list = `location.pathname === '/shared' && ${rows}.length >= ${firstPage}`;
  const times = await timed(page, `() => document.querySelector('#files-sidebar a[href="/shared"]').click()`, {
    list,
    whole: `(${list}) && document.querySelector('.browser__opening') === null`,
  });
  await page.locator('.listing__count').waitFor();
  const calls = (await page.evaluate(API_CALLS)) as string[];
  return { ...times, calls, count: (await page.locator('.listing__count').textContent()) ?? '' };
}

/** The folder `name` downloaded with its row's Download (a zip): ms to the download's end, and the zip's entry count. */
export async function downloadZip(page: Page, name: string) {
  await page
    .getByRole('button', { name: `Actions for ${name}` })
    .first()
    .click();
  const started = page.waitForEvent('download', { timeout: 60_000 });
  const t0 = performance.now();
  await page.getByRole('menuitem', { name: 'Download' }).click();
  const download = await started;
  const path = await download.path();
  const ms = performance.now() - t0;
  if (await download.failure()) throw new Error(`zip failed: ${await download.failure()}`);
  const zip = await zipSummary(path);
  await rm(path, { force: true });
  return { ms, ...zip };
}

/**
 * The archive's length, the entry count of its end record (zip64's when the plain one says 0xffff)
 * and its central directory's size: the part of a zip that must be held until its end, whatever
 * writes it (APPNOTE puts every entry's name, CRC and offset after the last file).
 */
async function zipSummary(path: string): Promise<{ bytes: number; entries: number; centralBytes: number }> {
  const file = await open(path);
  try {
    const { size } = await file.stat();
    const tail = Buffer.alloc(Math.min(size, 22 + 56 + 20));
    await file.read(tail, 0, tail.length, size - tail.length);
    const end = tail.length - 22;
    if (tail.readUInt32LE(end) !== 0x06054b50) throw new Error('the download is not a zip (no end record)');
    let entries = tail.readUInt16LE(end + 10);
    let centralBytes = tail.readUInt32LE(end + 12);
    if (entries === 0xffff) entries = Number(tail.readBigUInt64LE(end - 20 - 56 + 32));
    if (centralBytes === 0xffffffff) centralBytes = Number(tail.readBigUInt64LE(end - 20 - 56 + 40));
    return { bytes: size, entries, centralBytes };
  } finally {
    await file.close();
  }
}

/**
 * The part of a zip's memory no gather can avoid: its folder's listing, as the zip asks for it
 * (SPEC: depth 20, 1,000 items a request), fetched and parsed in the crypto worker, and per item
 * the two WebCrypto calls every gather makes to trust it (its key unwrapped, its name opened: here
 * AES-GCM over the same bytes under a key of the probe's, since the app's keys never leave its
 * ring), each page dropped at once and nothing kept. Answers the pages read. Run under
 * sampleMemory, its growth is the garbage that work alone leaves for the collector.
 */
export async function gatherProbe(page: Page, folderId: string): Promise<number> {
  const worker = page.workers().find((w) => w.url().includes('crypto.worker'));
  if (!worker) throw new Error('no crypto worker to run the probe in');
  return worker.evaluate(async (id: string) => {
    const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt']);
    const iv = new Uint8Array(12);
    const bytesOf = (base64: unknown) => Uint8Array.from(atob(String(base64)), (c) => c.charCodeAt(0));
    let pages = 0;
    for (let offset = 0; ; offset += 1000) {
      const response = await fetch(`/api/file?id=${id}&depth=20&limit=1000&offset=${offset}`);
      const body = (await response.json()) as { files?: Array<Record<string, unknown>> };
      pages++;
      const files = Array.isArray(body.files) ? body.files : [];
      await Promise.all(
        files.flatMap((item) => [
          crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, bytesOf(item.encryptedKey)),
          crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, bytesOf(item.encryptedFileName)),
        ]),
      );
      if (files.length < 1000) return pages;
    }
  }, folderId);
}

/**
 * The other part no zip can avoid (SPEC: one request per file): each file's ciphertext fetched in
 * the download service worker, read whole and dropped, one after another. Answers the files read.
 */
export async function fetchProbe(page: Page, folderId: string): Promise<number> {
  const sw = page.context().serviceWorkers()[0];
  if (!sw) throw new Error('no service worker to run the probe in');
  return sw.evaluate(async (id: string) => {
    let files = 0;
    for (let offset = 0; ; offset += 1000) {
      const response = await fetch(`/api/file?id=${id}&depth=20&limit=1000&offset=${offset}`);
      const body = (await response.json()) as { files?: Array<{ id: string; isDirectory: boolean }> };
      const page = Array.isArray(body.files) ? body.files : [];
      for (const item of page) {
        if (item.isDirectory) continue;
        await (await fetch(`/api/file/data/${item.id}`)).arrayBuffer();
        files++;
      }
      if (page.length < 1000) return files;
    }
  }, folderId);
}
