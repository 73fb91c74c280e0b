import { describe } from 'bun:test';
import type { MakeFilesEnv } from '../files/harness.ts';
import { accessMatrix } from './access-matrix.ts';
import { openSharingSuite } from './context.ts';
import { editorLinkTests } from './editor-links.ts';
import { linkAccessTests } from './link-access.ts';
import { linkCallTests } from './link-calls.ts';
import { linkedItemRules } from './linked-item.ts';
import { recipientTests } from './recipients.ts';
import { userShareTests } from './user-shares.ts';

/**
 * Sharing with users and by links (docs/protocol.md "Sharing", "Share links"), written once and
 * run against every database and blob store pair (SQLite + disk, PostgreSQL + S3). Its parts
 * share one harness (context.ts) and run in this order.
 */
export function sharingSuite(name: string, makeEnv: MakeFilesEnv) {
  describe(`sharing: ${name}`, () => {
    const suite = openSharingSuite(makeEnv);
    userShareTests(suite);
    recipientTests(suite);
    linkAccessTests(suite);
    editorLinkTests(suite);
    linkCallTests(suite);
    accessMatrix(() => suite);
    linkedItemRules(() => suite);
  });
}
