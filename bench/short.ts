/**
 * Every bench's short mode as a test (docs/benchmarks.md "Running the benches"): `bun
 * bench/<entry> --short` in a process of its own, which must exit 0 and print each of its figure
 * lines with a number in it (no NaN, no Infinity), so a bench that rots fails npm test. The figures
 * themselves are not judged: at these sizes they are mostly fixed costs. The bench/short-*.test.ts
 * files split the benches into groups that npm test's two lanes run side by side. A group's benches
 * share one Chromium, started here: each browser they open is a fresh context in it
 * (e2e/support/browser.ts SHARED_CHROMIUM_ENV), not a Chromium start of its own.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { chromium } from 'playwright-core';
import { postgresAvailability, reportUnavailable } from '../apps/server/test/support/services.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH, SHARED_CHROMIUM_ENV } from '../e2e/support/browser.ts';
import { freePort } from '../e2e/support/ports.ts';
import { skipWithoutBrowser } from '../e2e/support/suite.ts';

type Need = 'chromium' | 'postgres' | { tool: string };

export interface ShortBench {
  /** The entry point under bench/. */
  entry: string;
  /** Each figure line the bench prints, with the number that makes it a figure. */
  figures: RegExp[];
  needs?: Need[];
}

/** Numbers as the benches print them. */
const N = String.raw`\d+(?:\.\d+)?`;
const re = (source: string, flags = '') => new RegExp(source.replaceAll('#', N), flags);
/** A ratio of two figures, which a short run's zero makes Infinity or NaN. */
const RATIO = String.raw`(?:\d+(?:\.\d+)?|Infinity|NaN)x`;

/** Every bench entry point, by group (one test file each). */
export const SHORT_BENCHES = {
  api: [
    {
      entry: 'account/delete.ts',
      figures: [re('answer +# ms, all # items gone +# ms'), re('idle p50 +# ms p95 +# ms'), re('p95 during / idle: worst #')],
    },
    {
      entry: 'trash/run.ts',
      figures: [re('to the trash median +# ms p95 +# ms'), re('restored median +# ms'), re(String.raw`the purge\): +# ms`)],
    },
    { entry: 'sharing/run.ts', figures: [re('shared with # users .*: p50 # ms +p95 # ms')] },
    {
      entry: 'sharing/shared-list.ts',
      figures: [re('one page: +p50 # ms +p95 # ms'), re('whole list: +p50 # ms'), re('median ratio during/idle: x#')],
    },
    {
      entry: 'soak/run.ts',
      figures: [
        re('ran # s: # actions, # HTTP requests'),
        re('5xx: # '),
        re('GET /api/file +# +# +#'),
        re('RSS mean, middle third # MiB'),
      ],
    },
    {
      entry: 'cli/run.ts',
      needs: [{ tool: 'rclone' }, { tool: 'curl' }],
      figures: [
        re('^put: sealbox # s .* curl # s .*ratio #', 'm'),
        re('^get: sealbox # s .* curl # s .*ratio #', 'm'),
        re('get ceiling .*: # s'),
        re('bridge peak resident memory # MiB'),
        re('PROPFIND of # items: cold # ms .*warm # ms'),
      ],
    },
  ],
  live: [
    {
      entry: 'live/run.ts',
      needs: ['chromium', 'postgres'],
      figures: [
        re(String.raw`one instance \(SQLite\) +p50 +# ms +p95 +# ms`),
        re('A → tab on B .* p50 +# ms +p95 +# ms'),
        re('server RSS: .* -?# KiB per socket'),
        re('one change → # sockets, # rounds: p50 +# ms +p95 +# ms'),
        re('/api/health during the burst: +p50 +# ms'),
      ],
    },
    {
      entry: 'live/sockets.ts',
      needs: ['postgres'],
      figures: [
        re('bare Bun.serve, # idle sockets: .* -?# KiB per socket'),
        re('round 1: p50 +# ms +p95 +# ms'),
        re('median of rounds p50 +# ms, p95 +# ms'),
        re('idle socket: A -?# KiB, B -?# KiB'),
      ],
    },
    {
      entry: 'sharing/share-to-live.ts',
      needs: ['chromium'],
      figures: [
        re('1. Share dialog click → row: median +# ms +p95 +# ms'),
        re('2. POST /api/share → row +: median +# ms +p95 +# ms'),
      ],
    },
  ],
  pages: [
    {
      entry: 'account/run.ts',
      needs: ['chromium'],
      figures: [re('password change: median # ms'), re('recovery: median # ms with its sign-in, # ms without')],
    },
    {
      entry: 'login/run.ts',
      needs: ['chromium'],
      figures: [
        re('v2: median click → unlocked # ms'),
        re(String.raw`v1 → v2 \(once per account\): median click → unlocked # ms`),
      ],
    },
    {
      entry: 'batch/run.ts',
      needs: ['chromium'],
      figures: [re('median of #: batch calls # s, wrapping # s'), re('click -> toast median # s p95 # s')],
    },
    {
      entry: 'listing/run.ts',
      needs: ['chromium'],
      figures: [
        re(String.raw`whole folder \(# items\): +received p50 +# ms +p95 +# ms`),
        re('own, # items +first page +# ms / +# ms'),
        re('link, # items +first page +# ms / +# ms'),
        re('first page of # / of # items: #x'),
      ],
    },
    {
      entry: 'big-account/run.ts',
      needs: ['chromium'],
      figures: [
        re(String.raw`sign-in click → first page of /files +\| # ms / # ms +\| # ms / # ms +\| #x`),
        re(String.raw`search "budget" → first results +\| # ms / # ms +\| # ms / # ms +\| #x`),
        re(String.raw`zip, JS heap growth \(peak - before it\) +\| # MiB / # MiB +\| # MiB / # MiB +\| ${RATIO}`),
        re(String.raw`zip in one tab, # / # files: JS heap growth +\| # MiB / # MiB +\| # MiB / # MiB +\| ${RATIO}`),
        re(String.raw`zip, peak JS heap \(page \+ workers\) +\| # MiB / # MiB +\| # MiB / # MiB +\| #x`),
        re('# goal[(]s[)] not met'),
      ],
    },
    {
      entry: 'search/run.ts',
      needs: ['chromium'],
      figures: [
        re('# items: index built in # (m?s)'),
        re('# items: first results median # ms, p95 # ms'),
        re('# items: full rebuild # (m?s)'),
        re('# items: full rebuild median # ms, p95 # ms'),
        re(String.raw`ratio of medians [\d,]+/[\d,]+: #`),
      ],
    },
    {
      entry: 'sharing/link-open.ts',
      needs: ['chromium'],
      figures: [re('navigation → first page rendered +median +# ms +p95 +# ms'), re('GET /api/file listing .* median +# ms')],
    },
  ],
  media: [
    {
      entry: 'crypto/run.ts',
      needs: ['chromium', { tool: 'openssl' }],
      figures: [
        re('^ +256 KiB +encrypt +# +# +# +#', 'm'),
        re(String.raw`best chunk size for 2 Chromium workers: # [KM]iB \(#`),
        re('real streams at CHUNK=256 KiB, 2 workers: #'),
        re('^ *decrypt +network +1 +# +# +#', 'm'),
        re('raw chunk decrypt .*: #; target'),
        re('^ *64 KiB +1 +# +# +# +# +#$', 'm'),
        re(String.raw`fed / raw \(worst\): #`),
        // The CPU row: whole milliseconds per GB.
        re(String.raw`^ *64 KiB +1 +\d+ +\d+ +\d+ +\d+ `, 'm'),
      ],
    },
    {
      entry: 'transfer/run.ts',
      needs: ['chromium'],
      figures: [
        re(String.raw`^upload +app +# s +# MiB/s \| plain +# s +# MiB/s \| ratio #`, 'm'),
        re(String.raw`^download \+ save +app +# s +# MiB/s \| plain +# s +# MiB/s \| ratio #`, 'm'),
        re(String.raw`passthrough \+ decrypt sw +# s`),
        re(String.raw`^vs upload probe +app +# s +# MiB/s \| probe +# s +# MiB/s \| ratio #`, 'm'),
        re(String.raw`^upload vs upload probe \(# pairs, alternated\): median ratio #`, 'm'),
        re(String.raw`\(# pairs, alternated\): median ratio #`),
      ],
    },
    {
      entry: 'preview/run.ts',
      needs: ['chromium'],
      figures: [
        re('first open .*: first frame # ms, fetched # MiB; play # ms; seek to 50 % and play # ms'),
        re('median of opens .*: first frame # ms / # MiB; seek # ms'),
      ],
    },
    {
      entry: 'preview/pdf.ts',
      needs: ['chromium'],
      figures: [
        re(String.raw`median of #: first page # ms \(fetch \+ decrypt # ms, pdf.js open # ms, first render # ms\); p95 # ms`),
      ],
    },
  ],
} satisfies Record<string, ShortBench[]>;

const ROOT = new URL('..', import.meta.url).pathname;
/** A short bench takes seconds to a minute; the limit only stops a hang on a loaded machine. */
const TIMEOUT_MS = 300_000;

/** What the bench lacks here, or nothing. */
async function missing(needs: Need[]): Promise<string[]> {
  const lacks: string[] = [];
  for (const need of needs) {
    if (need === 'chromium') {
      if (skipWithoutBrowser) lacks.push('Chromium');
    } else if (need === 'postgres') {
      const pg = await postgresAvailability();
      if (!pg.available) lacks.push(pg.reason);
    } else if (!Bun.which(need.tool)) lacks.push(`${need.tool} (apt-get install ${need.tool})`);
  }
  return lacks;
}

/**
 * Runs `bun bench/<entry> --short`; answers its exit code and everything it printed. The bench
 * leads a process group of its own (setsid), so that a hung one is stopped with the servers and
 * Chromium it started, not only itself, and nothing it started outlives it.
 */
export async function runShort(entry: string, env: Record<string, string> = {}): Promise<{ code: number; output: string }> {
  const child = Bun.spawn(['setsid', process.execPath, `bench/${entry}`, '--short'], {
    cwd: ROOT,
    stdout: 'pipe',
    stderr: 'pipe',
    env: { ...process.env, ...env, NO_COLOR: '1' },
  });
  const limitMs = TIMEOUT_MS - 10_000;
  let hung = false;
  const timer = setTimeout(() => {
    hung = true;
    process.kill(-child.pid, 'SIGKILL');
  }, limitMs);
  const [out, err, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  clearTimeout(timer);
  // Whatever the bench left running (a server it failed to stop) goes with it.
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // ESRCH: nothing was left.
  }
  return { code, output: `${out}${err}${hung ? `\nstopped after ${limitMs / 1000} s` : ''}` };
}

/** The lines of `output` a failure message shows: the end, where a bench's error is. */
const tail = (output: string) => output.trimEnd().split('\n').slice(-40).join('\n');

/** Declares one test per bench of `group`, or the skip (or failure, where required) of those that lack something. */
export async function shortBenchSuite(group: keyof typeof SHORT_BENCHES): Promise<void> {
  const runnable: ShortBench[] = [];
  for (const bench of SHORT_BENCHES[group] as ShortBench[]) {
    const lacks = await missing(bench.needs ?? []);
    if (lacks.length > 0) reportUnavailable(`bench/${bench.entry} --short`, `missing ${lacks.join('; ')}`);
    else runnable.push(bench);
  }
  // Started once the group is known to need it; the benches reach it through the environment.
  const env: Record<string, string> = {};
  if (runnable.some((bench) => bench.needs?.includes('chromium'))) {
    const port = freePort();
    const shared = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: [...CHROMIUM_ARGS, `--remote-debugging-port=${port}`],
    });
    env[SHARED_CHROMIUM_ENV] = `http://127.0.0.1:${port}`;
    afterAll(() => shared.close());
  }
  for (const bench of runnable) {
    describe(`bench/${bench.entry} --short`, () => {
      test(
        'completes and prints its figures',
        async () => {
          const { code, output } = await runShort(bench.entry, env);
          expect(code, `exit code ${code}:\n${tail(output)}`).toBe(0);
          for (const figure of bench.figures) expect(output, `no line matches ${figure}`).toMatch(figure);
          expect(output, 'a figure is not a number').not.toMatch(/\bNaN\b|\bInfinity\b/);
        },
        TIMEOUT_MS,
      );
    });
  }
}
