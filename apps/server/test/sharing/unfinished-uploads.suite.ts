import { describe } from 'bun:test';
import type { MakeFilesEnv } from '../files/harness.ts';
import { accessEndsTests } from './unfinished-uploads/access-ends.ts';
import { openUnfinishedSuite } from './unfinished-uploads/context.ts';
import { holderTests } from './unfinished-uploads/holders.ts';
import { ownerViewTests } from './unfinished-uploads/owner-view.ts';

/**
 * Unfinished uploads in an owner's tree (issue 21, findings 3 and 8; docs/protocol.md "Uploads by
 * others"): the owner sees and ends them, they end with the access they came through, what a
 * link or another user may hold is capped, an anonymous holder is recorded as such and each
 * address counts on its own. Run against every database and blob store pair. Its parts share
 * one harness (unfinished-uploads/context.ts) and run in this order.
 */
export function unfinishedUploadsSuite(name: string, makeEnv: MakeFilesEnv) {
  describe(`unfinished uploads: ${name}`, () => {
    const suite = openUnfinishedSuite(makeEnv);
    ownerViewTests(suite);
    accessEndsTests(suite);
    holderTests(suite);
  });
}
