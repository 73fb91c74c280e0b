import { describe, expect, it } from 'vitest';
import { deletedAccountName } from '@sealbox/rules';
import { shownUsername } from './item-names.ts';

describe('shownUsername', () => {
  it('says "Deleted account" for a deleted account, writes out bidi controls in any other name', () => {
    expect(shownUsername(deletedAccountName('5f0c3a52-6a5e-4c1b-9a55-2b1e9d7c0f11'))).toBe('Deleted account');
    expect(shownUsername('deleted:bob')).toBe('deleted:bob');
    expect(shownUsername('ali\u202Eec')).toBe('ali[U+202E]ec');
  });
});
