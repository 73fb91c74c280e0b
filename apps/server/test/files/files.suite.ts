import { describe } from 'bun:test';
import { openFilesSuite } from './context.ts';
import type { MakeFilesEnv } from './harness.ts';
import { listingTests } from './listing.ts';
import { refusalTests } from './refusals.ts';
import { treeLimitTests } from './tree-limits.ts';
import { uploadTests } from './uploads.ts';

/**
 * The files and uploads contract of docs/protocol.md, written once and run against every
 * database and blob store pair (SQLite + disk, PostgreSQL + S3). Its parts share one harness
 * (context.ts) and run in this order.
 */
export function filesSuite(name: string, makeEnv: MakeFilesEnv) {
  describe(`files and uploads: ${name}`, () => {
    const suite = openFilesSuite(makeEnv);
    uploadTests(suite);
    listingTests(suite);
    refusalTests(suite);
    treeLimitTests(suite);
  });
}
