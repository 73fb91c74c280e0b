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

/** The fenced code blocks of a markdown file, in order. */
export async function codeBlocks(path = OPERATIONS_MD): Promise<CodeBlock[]> {
  const text = await readFile(path, 'utf8');
  const blocks: CodeBlock[] = [];
  for (const match of text.matchAll(/(?:<!-- run: ([\w-]+) -->\n)?```(\w*)\n([\s\S]*?)\n```/g)) {
    blocks.push({ name: match[1], lang: match[2] ?? '', code: match[3] ?? '' });
  }
  return blocks;
}

/** The block marked `<!-- run: name -->`; a missing or doubled mark fails the test. */
export async function namedBlock(name: string, path = OPERATIONS_MD): Promise<string> {
  const found = (await codeBlocks(path)).filter((block) => block.name === name);
  if (found.length !== 1) throw new Error(`${path}: expected one block marked "run: ${name}", found ${found.length}`);
  return found[0]!.code;
}
