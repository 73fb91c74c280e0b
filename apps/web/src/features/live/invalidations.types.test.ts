// @vitest-environment node
/**
 * The claim of invalidations.ts, checked by the compiler itself: a kind the server gains (added to
 * @sealbox/rules' EventKind, the only kinds its event bus carries) is a type error in
 * invalidations.ts until it has a handler there. TypeScript compiles invalidations.ts twice, as it
 * is and with one more kind in packages/rules/src/events.ts, and only the second must fail.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../..');
const EVENTS = join(ROOT, 'packages/rules/src/events.ts');
const INVALIDATIONS = join(ROOT, 'apps/web/src/features/live/invalidations.ts');
const NEW_KIND = 'item.restored';

/** Files parsed once for both compiles (all but events.ts, which each compile reads its way). */
const parsed = new Map<string, ts.SourceFile | undefined>();

/** The type errors in invalidations.ts, with events.ts read through `edit`. */
function typeErrors(edit: (events: string) => string): string[] {
  const config = ts.readConfigFile(join(ROOT, 'tsconfig.base.json'), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  const host = ts.createCompilerHost(options, true);
  const { getSourceFile, readFile } = host;
  host.readFile = (name) => {
    const text = readFile(name);
    return text !== undefined && resolve(name) === EVENTS ? edit(text) : text;
  };
  host.getSourceFile = (name, language, ...rest) => {
    if (resolve(name) === EVENTS) return getSourceFile(name, language, ...rest);
    if (!parsed.has(name)) parsed.set(name, getSourceFile(name, language, ...rest));
    return parsed.get(name);
  };
  const program = ts.createProgram([INVALIDATIONS], options, host);
  expect(program.getSourceFiles().some((file) => resolve(file.fileName) === EVENTS)).toBe(true);
  return ts
    .getPreEmitDiagnostics(program, program.getSourceFile(INVALIDATIONS))
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe('live event kinds, server and client', () => {
  test('a kind the server gains fails typecheck until invalidations.ts handles it', () => {
    expect(typeErrors((events) => events)).toEqual([]);
    const withNewKind = (events: string) => {
      const edited = events.replace("'item.deleted'] as const", `'item.deleted', '${NEW_KIND}'] as const`);
      expect(edited).not.toBe(events);
      return edited;
    };
    const errors = typeErrors(withNewKind);
    expect(errors.length).toBeGreaterThan(0);
    // Its table of handlers lacks one: Property '"item.restored"' is missing in type ...
    expect(errors.join('\n')).toContain(`Property '"${NEW_KIND}"' is missing`);
  }, 120_000);
});
