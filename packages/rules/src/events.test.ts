import { describe, expect, test } from 'bun:test';
import { readFile } from 'node:fs/promises';
import {
  ACCOUNT_EVENT_KINDS,
  BATCH_EVENT_KINDS,
  EVENT_KINDS,
  ITEM_EVENT_KINDS,
  LINK_EVENT_KINDS,
  SHARE_EVENT_KINDS,
  TREE_EVENT_KINDS,
  isEventKind,
} from './events.ts';

describe('event kinds', () => {
  test('are the six groups, each kind once', () => {
    expect(EVENT_KINDS).toEqual([
      ...ITEM_EVENT_KINDS,
      ...BATCH_EVENT_KINDS,
      ...TREE_EVENT_KINDS,
      ...SHARE_EVENT_KINDS,
      ...LINK_EVENT_KINDS,
      ...ACCOUNT_EVENT_KINDS,
    ]);
    expect(new Set(EVENT_KINDS).size).toBe(EVENT_KINDS.length);
  });

  test('isEventKind knows them and nothing else', () => {
    for (const kind of EVENT_KINDS) expect(isEventKind(kind)).toBe(true);
    for (const kind of ['share.added', 'events.resync', '', 'constructor', 'item']) expect(isEventKind(kind)).toBe(false);
  });

  test('docs/protocol.md "Live updates" names every kind', async () => {
    const protocol = await readFile(new URL('../../../docs/protocol.md', import.meta.url), 'utf8');
    const live = protocol.slice(protocol.indexOf('### Live updates'), protocol.indexOf('### Sharing'));
    for (const kind of EVENT_KINDS) expect(live).toContain(`\`${kind}\``);
  });
});
