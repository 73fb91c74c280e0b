import { describe, expect, test } from 'bun:test';
import { deletedAccountName, isDeletedAccountName } from './people.ts';

describe('deleted account names', () => {
  test('a deleted account is named by its id, which no username can be', () => {
    const name = deletedAccountName('5f0c3a52-6a5e-4c1b-9a55-2b1e9d7c0f11');
    expect(name).toBe('deleted:5f0c3a52-6a5e-4c1b-9a55-2b1e9d7c0f11');
    expect(isDeletedAccountName(name)).toBe(true);
    // Usernames are 3-20 characters: one that merely starts so is a username.
    expect(isDeletedAccountName('deleted:alice')).toBe(false);
    expect(isDeletedAccountName('alice')).toBe(false);
  });
});
