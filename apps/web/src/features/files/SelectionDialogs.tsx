/** The dialogs of the listing's selection and keyboard (issue 14): delete a selection, the '?' list of shortcuts. */
import { Button, CloseDialog, Dialog } from '@sealbox/ui';
import type { ItemView } from '../../model/items.ts';
import { deleteFateText, type DeleteFate } from './dialogs.tsx';
import { displayName } from './format.ts';

/** How many names the delete confirmation lists before 'and N more'. */
const NAMES_SHOWN = 8;

export function DeleteSelectionDialog({
  items,
  open,
  onClose,
  busy,
  onDelete,
  fate = { kind: 'forever' },
}: {
  items: readonly ItemView[];
  open: boolean;
  onClose: () => void;
  busy: boolean;
  onDelete: () => void;
  fate?: DeleteFate;
}) {
  const folders = items.some((item) => item.isDirectory);
  const rest = items.length - NAMES_SHOWN;
  const forever = items.some((item) => item.trashed);
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && onClose()}
      title={forever ? `Delete ${items.length} items forever?` : `Delete ${items.length} items?`}
      description={`These items${deleteFateText(fate, true, folders)}`}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} data-autofocus>
            Cancel
          </Button>
          <Button variant="danger" onClick={onDelete} disabled={busy}>
            {forever ? `Delete ${items.length} items forever` : `Delete ${items.length} items`}
          </Button>
        </>
      }
    >
      <ul className="selection-names" aria-label="Items to delete">
        {items.slice(0, NAMES_SHOWN).map((item) => (
          <li key={item.id}>{displayName(item)}</li>
        ))}
        {rest > 0 && <li>and {rest} more</li>}
      </ul>
    </Dialog>
  );
}

/** What the '?' dialog lists: the keys, then what they do in the listing. */
export const SHORTCUTS: ReadonlyArray<readonly [keys: string, does: string]> = [
  ['Arrow keys', 'Move between items (up, down, left and right in the grid)'],
  ['Home / End', 'First / last item'],
  ['Shift + arrows', 'Extend the selection'],
  ['Space', 'Select or unselect the item'],
  ['Ctrl/⌘ + A', 'Select all'],
  ['Enter', 'Open the folder or preview the file'],
  ['F2', 'Rename'],
  ['Delete', 'Delete the selection (or the item)'],
  ['Escape', 'Clear the selection'],
  ['Tab', "The item's checkbox and actions button, then the pages"],
  ['?', 'Show these shortcuts'],
];

export function ShortcutsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <CloseDialog open={open} onClose={onClose} title="Keyboard shortcuts">
      <dl className="shortcuts">
        {SHORTCUTS.map(([keys, does]) => (
          <div key={keys} className="shortcuts__row">
            <dt>
              <kbd>{keys}</kbd>
            </dt>
            <dd>{does}</dd>
          </div>
        ))}
      </dl>
    </CloseDialog>
  );
}
