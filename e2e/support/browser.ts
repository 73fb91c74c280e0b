/**
 * Debian's Chromium driven by playwright-core. Each launch gets a fresh profile
 * directory so runs never share cookies, storage or service workers.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Flags for every Chromium the tests and benchmarks start: quiet, headless, no background traffic. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** In CI (or when asked) a missing browser must fail the suite instead of silently skipping it. */
export function browserRequired(env: Record<string, string | undefined> = process.env): boolean {
  return env.CI === 'true' || env.SEALBOX_REQUIRE_SERVICES === '1';
}

/**
 * A browser context on a throwaway profile, or undefined (with a warning) when
 * Chromium is not installed and the run does not require it. `context.close()`
 * also deletes the profile directory. `extraArgs` follow CHROMIUM_ARGS (e.g. a host resolver
 * rule that gives the local server a non-localhost name, to see the app outside a secure context).
 */
export async function launchBrowser(extraArgs: string[] = []): Promise<BrowserContext | undefined> {
  if (!existsSync(CHROMIUM_PATH)) {
    const message = `Chromium not found at ${CHROMIUM_PATH}`;
    if (browserRequired()) throw new Error(`${message} (required: CI=true or SEALBOX_REQUIRE_SERVICES=1)`);
    console.warn(`${message}: skipping browser tests`);
    return undefined;
  }
  const shared = process.env[SHARED_CHROMIUM_ENV];
  if (shared && extraArgs.length === 0) return contextIn(shared);
  const profileDir = await mkdtemp(join(tmpdir(), 'sealbox-chromium-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profileDir, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: [...CHROMIUM_ARGS, ...extraArgs],
    });
  } catch (error) {
    await rm(profileDir, { recursive: true, force: true });
    throw error;
  }
  const close = context.close.bind(context);
  context.close = async (options) => {
    try {
      await close(options);
    } finally {
      await rm(profileDir, { recursive: true, force: true });
    }
  };
  return context;
}

/**
 * The DevTools address (http://127.0.0.1:PORT) of a Chromium started by a parent process: set, a
 * launch without extra flags is a fresh context in it instead of a Chromium of its own. npm test
 * sets it for the benches' short runs (bench/short.ts), each of which would otherwise pay a
 * Chromium start per context; a bench run by hand never has it.
 */
export const SHARED_CHROMIUM_ENV = 'SEALBOX_SHARED_CHROMIUM';

/**
 * A fresh context (no cookies, storage or service workers of another) in the Chromium at
 * `endpoint`. Over CDP, not playwright's own protocol, under which downloads are not local files.
 */
async function contextIn(endpoint: string): Promise<BrowserContext> {
  const browser = await chromium.connectOverCDP(endpoint);
  const context = await browser.newContext();
  const close = context.close.bind(context);
  context.close = async (options) => {
    try {
      await close(options);
    } finally {
      // Only this connection: the Chromium belongs to the process that started it.
      await browser.close();
    }
  };
  return context;
}

/** The Chromium of freshContext, started on first use. */
let kept: Browser | undefined;

/**
 * A fresh context (cookies, storage and service workers of its own, as a fresh profile has) in
 * one Chromium this process keeps: the journeys open one per page, and a Chromium start for each
 * took longer than many a test. A Chromium that
 * went away (crashed) is started again. Undefined without Chromium, as launchBrowser.
 */
export async function freshContext(): Promise<BrowserContext | undefined> {
  if (!kept?.isConnected()) {
    if (!existsSync(CHROMIUM_PATH)) return launchBrowser();
    kept = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  }
  return kept.newContext();
}

/** Closes freshContext's Chromium, if it started one. */
export async function closeKeptChromium(): Promise<void> {
  const browser = kept;
  kept = undefined;
  await browser?.close();
}
