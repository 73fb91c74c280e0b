/**
 * A bare DevTools connection to a Chromium this process starts: only Target, Page, Runtime, DOM
 * and Browser (downloads) are used, and the Network domain is never enabled, so nothing copies
 * request or response bodies aside (what Playwright's network tracking does, at ~10x the cost).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../e2e/support/browser.ts';

type Listener = (params: any) => void;

class Connection {
  private nextId = 1;
  private pending = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>();
  private listeners = new Map<string, Set<Listener>>();
  constructor(private ws: WebSocket) {
    ws.addEventListener('message', (event) => {
      const msg = JSON.parse(String(event.data));
      if (msg.id !== undefined) {
        const entry = this.pending.get(msg.id);
        this.pending.delete(msg.id);
        if (msg.error) entry?.reject(new Error(`${msg.error.message} ${msg.error.data ?? ''}`));
        else entry?.resolve(msg.result);
      } else {
        for (const l of this.listeners.get(msg.method) ?? []) l(msg.params);
      }
    });
  }
  send(method: string, params: object = {}, sessionId?: string): Promise<any> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    });
  }
  on(method: string, listener: Listener): () => void {
    const set = this.listeners.get(method) ?? new Set();
    set.add(listener);
    this.listeners.set(method, set);
    return () => set.delete(listener);
  }
  close() {
    this.ws.close();
  }
}

export interface BarePage {
  /** Evaluates an expression (promises awaited) and returns its JSON value. */
  eval<T = unknown>(expression: string): Promise<T>;
  /** Polls `expression` until truthy. */
  waitFor(expression: string, timeoutMs?: number): Promise<void>;
  navigate(url: string): Promise<void>;
  /** Sets files on the input the expression finds. */
  setFiles(inputExpression: string, files: string[]): Promise<void>;
  /** Runs `start`, then waits for the download it begins to complete; answers the saved path. */
  download(start: () => Promise<void>, timeoutMs?: number): Promise<string>;
  close(): Promise<void>;
}

/** The Chromium the e2e journeys use, with the same flags. */
export async function launchBare(): Promise<BarePage> {
  const profile = await mkdtemp(join(tmpdir(), 'sealbox-bench-chromium-'));
  const downloads = join(profile, 'downloads');
  const proc = Bun.spawn(
    [
      CHROMIUM_PATH,
      ...CHROMIUM_ARGS,
      '--remote-debugging-port=0',
      `--user-data-dir=${profile}`,
      '--window-size=1280,800',
      'about:blank',
    ],
    { stdout: 'ignore', stderr: 'ignore' },
  );
  let portFile = '';
  for (let i = 0; i < 200 && !portFile; i++) {
    portFile = await readFile(join(profile, 'DevToolsActivePort'), 'utf8').catch(() => '');
    if (!portFile) await Bun.sleep(50);
  }
  const [port, path] = portFile.trim().split('\n');
  const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`);
  await new Promise((resolve, reject) => {
    ws.addEventListener('open', resolve, { once: true });
    ws.addEventListener('error', reject, { once: true });
  });
  const cdp = new Connection(ws);
  const { targetId } = await cdp.send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await cdp.send('Target.attachToTarget', { targetId, flatten: true });
  await cdp.send('Browser.setDownloadBehavior', { behavior: 'allowAndName', downloadPath: downloads, eventsEnabled: true });

  const evaluate = async (expression: string, returnByValue = true) => {
    const result = await cdp.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue }, sessionId);
    if (result.exceptionDetails)
      throw new Error(`evaluate failed: ${result.exceptionDetails.exception?.description ?? result.exceptionDetails.text}`);
    return result.result;
  };

  const page: BarePage = {
    async eval<T>(expression: string) {
      return (await evaluate(expression)).value as T;
    },
    async waitFor(expression, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (await page.eval<boolean>(`!!(${expression})`).catch(() => false)) return;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${expression}`);
        await Bun.sleep(50);
      }
    },
    async navigate(url) {
      await cdp.send('Page.navigate', { url }, sessionId);
      await page.waitFor(`document.readyState === 'complete' && location.href.startsWith(${JSON.stringify(url.split('?')[0])})`);
    },
    async setFiles(inputExpression, files) {
      const handle = await evaluate(inputExpression, false);
      await cdp.send('DOM.setFileInputFiles', { files, objectId: handle.objectId }, sessionId);
    },
    async download(start, timeoutMs = 600_000) {
      let guid = '';
      const done = new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('download timed out')), timeoutMs);
        const off = cdp.on('Browser.downloadProgress', (p) => {
          if (!guid || p.guid !== guid) return;
          if (p.state === 'completed' || p.state === 'canceled') {
            clearTimeout(timer);
            off();
            if (p.state === 'completed') resolve(join(downloads, guid));
            else reject(new Error('download canceled'));
          }
        });
      });
      const began = new Promise<void>((resolve) => {
        const off = cdp.on('Browser.downloadWillBegin', (p) => {
          guid = p.guid;
          off();
          resolve();
        });
      });
      await start();
      await began;
      return done;
    },
    async close() {
      cdp.close();
      proc.kill();
      await proc.exited;
      await rm(profile, { recursive: true, force: true });
    },
  };
  return page;
}
