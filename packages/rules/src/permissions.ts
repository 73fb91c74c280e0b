/**
 * Who may change an item (docs/protocol.md "Who may do what"). The server decides every call
 * with these (apps/server/src/domain/files/editable.ts); the web app greys out what they refuse
 * and says why, with the same text.
 */
import { LINKED_ITEM_TEXT, NO_EDIT_TEXT } from './messages.ts';

/** The caller's role on an item: the tree's owner, an editor (entry or link) or a viewer. */
export type Role = 'owner' | 'editor' | 'viewer';

export const canEdit = (role: Role | null | undefined): boolean => role === 'owner' || role === 'editor';

/** A change to an item that exists (creating inside a folder is the folder's edit right alone). */
export type ItemChange = 'rename' | 'move' | 'delete';

export type ChangeRefusal = 'no-edit' | 'linked-item';

export const CHANGE_REFUSAL_TEXT: Record<ChangeRefusal, string> = {
  'no-edit': NO_EDIT_TEXT,
  'linked-item': LINKED_ITEM_TEXT,
};

export interface ChangeContext {
  /** Whether the caller may edit the item (an owner, an editor entry above it, an editor link). */
  canEdit: boolean;
  /** Whether the caller comes through a share link and the item is the one the link shares. */
  linkedItem: boolean;
}

/**
 * Why the caller may not make `change` (undefined: they may). An editor link edits what it
 * shares, the linked item itself included (a link to one file: rename it), but never moves or
 * deletes the linked item: that would take it from the owner and end the link for every holder,
 * which is the owner's to decide (docs/protocol.md "Who may do what").
 */
export function changeRefusal(change: ItemChange, context: ChangeContext): ChangeRefusal | undefined {
  if (!context.canEdit) return 'no-edit';
  if (context.linkedItem && change !== 'rename') return 'linked-item';
  return undefined;
}
