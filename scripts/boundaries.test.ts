/**
 * The import boundaries of .dependency-cruiser.cjs really bite: in a scratch tree laid out like
 * the repo, each forbidden import is reported under its rule, and the allowed ones are not.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const root = join(import.meta.dir, '..');
const cli = join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

/** file -> what it imports (relative specifiers, as the code writes them). */
const TREE: Record<string, string[]> = {
  'apps/server/src/domain/rules.ts': ['../http/routes.ts', '../ports/port.ts'],
  'apps/server/src/http/routes.ts': ['../infra/adapter.ts', '../domain/rules.ts'],
  'apps/server/src/ports/port.ts': ['../domain/model.ts'],
  'apps/server/src/domain/model.ts': [],
  'apps/server/src/infra/adapter.ts': ['../http/helper.ts', '../ports/port.ts'],
  'apps/server/src/http/helper.ts': [],
  'apps/server/src/adapters.ts': ['./infra/adapter.ts'],
  'apps/web/src/workers/worker.ts': ['../features/files/index.ts', '../lib/cycle-a.ts'],
  'apps/web/src/features/files/index.ts': ['./listing.ts'],
  'apps/web/src/features/files/listing.ts': ['../sharing/dialog.ts', '../sharing/index.ts'],
  'apps/web/src/features/sharing/index.ts': ['./dialog.ts'],
  'apps/web/src/features/sharing/dialog.ts': [],
  'apps/web/src/routes/files.tsx': ['../features/files/listing.ts', '../features/files/index.ts'],
  'apps/web/src/lib/cycle-a.ts': ['./cycle-b.ts'],
  'apps/web/src/lib/cycle-b.ts': ['./cycle-a.ts'],
  'packages/rules/src/rules.ts': ['./names.ts', '../../../apps/server/src/domain/model.ts'],
  'packages/rules/src/names.ts': [],
};

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

let scratch: string;
let violations: Violation[];
let exitCode: number;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'sealbox-boundaries-'));
  for (const [file, imports] of Object.entries(TREE)) {
    await mkdir(join(scratch, dirname(file)), { recursive: true });
    const body = imports.map((specifier, i) => `import * as m${i} from '${specifier}';\nconsole.log(m${i});`).join('\n');
    await writeFile(join(scratch, file), `${body}\nexport const here = 1;\n`);
  }
  await writeFile(join(scratch, '.dependency-cruiser.cjs'), await Bun.file(join(root, '.dependency-cruiser.cjs')).text());
  await writeFile(join(scratch, 'tsconfig.base.json'), await Bun.file(join(root, 'tsconfig.base.json')).text());
  const cruise = async (...extra: string[]) => {
    const run = Bun.spawn([process.execPath, cli, '--config', '.dependency-cruiser.cjs', ...extra, 'apps', 'packages'], {
      cwd: scratch,
      stdout: 'pipe',
      stderr: 'pipe',
    });
    const [out, code] = await Promise.all([new Response(run.stdout).text(), run.exited]);
    return { out, code };
  };
  // As `bun run lint` runs it: the errors make the command fail.
  exitCode = (await cruise()).code;
  const { out } = await cruise('--output-type', 'json');
  violations = (JSON.parse(out) as { summary: { violations: Violation[] } }).summary.violations;
}, 60_000);

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

const reported = (rule: string) =>
  violations
    .filter((v) => v.rule.name === rule)
    .map((v) => `${v.from} -> ${v.to}`)
    .sort();

describe('import boundaries', () => {
  test.each([
    ['server-domain-is-pure', ['apps/server/src/domain/rules.ts -> apps/server/src/http/routes.ts']],
    ['server-http-picks-no-adapter', ['apps/server/src/http/routes.ts -> apps/server/src/infra/adapter.ts']],
    ['server-ports-import-nothing-of-the-app', ['apps/server/src/ports/port.ts -> apps/server/src/domain/model.ts']],
    ['server-infra-serves-ports', ['apps/server/src/infra/adapter.ts -> apps/server/src/http/helper.ts']],
    ['web-workers-never-import-features', ['apps/web/src/workers/worker.ts -> apps/web/src/features/files/index.ts']],
    ['web-feature-through-its-index', ['apps/web/src/features/files/listing.ts -> apps/web/src/features/sharing/dialog.ts']],
    ['web-outside-features-through-index', ['apps/web/src/routes/files.tsx -> apps/web/src/features/files/listing.ts']],
    ['rules-are-pure', ['packages/rules/src/rules.ts -> apps/server/src/domain/model.ts']],
  ])('%s reports exactly the forbidden import', (rule, expected) => {
    expect(reported(rule)).toEqual(expected);
  });

  test('the check fails the lint run', () => {
    expect(exitCode).not.toBe(0);
  });

  test('a cycle is reported', () => {
    expect(reported('no-cycles')).toContain('apps/web/src/lib/cycle-a.ts -> apps/web/src/lib/cycle-b.ts');
  });

  test('nothing else: adapters.ts may pick adapters, features meet through index.ts, rules import themselves', () => {
    expect(violations.length).toBe(10);
  });
});
