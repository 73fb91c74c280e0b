import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { REPO_ROOT } from './main-process.ts';

/** The administrator's guide, whose commands the tests run as written. */
export const OPERATIONS_MD = join(REPO_ROOT, 'docs/operations.md');

export interface CodeBlock {
  lang: string;
  code: string;
  /** The name of a `<!-- run: name -->` comment on the line just before the fence, if any. */
  name: string | undefined;
}

/** The fenced code blocks of a markdown file, in order (fences may be indented, as in lists). */
export async function codeBlocks(path = OPERATIONS_MD): Promise<CodeBlock[]> {
  const lines = (await readFile(path, 'utf8')).split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = lines[i]!.match(/^(\s*)```(\w*)\s*$/);
    if (!open) continue;
    const name = lines[i - 1]?.match(/^<!-- run: ([\w-]+) -->$/)?.[1];
    const body: string[] = [];
    for (i++; i < lines.length && !/^\s*```\s*$/.test(lines[i]!); i++) body.push(lines[i]!.slice(open[1]!.length));
    blocks.push({ name, lang: open[2] ?? '', code: body.join('\n') });
  }
  return blocks;
}

/** The block marked `<!-- run: name -->`; a missing or doubled mark fails the test. */
export async function namedBlock(name: string, path = OPERATIONS_MD): Promise<string> {
  const found = (await codeBlocks(path)).filter((block) => block.name === name);
  if (found.length !== 1) throw new Error(`${path}: expected one block marked "run: ${name}", found ${found.length}`);
  return found[0]!.code;
}
