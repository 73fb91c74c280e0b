import { useRef, useState, type FormEvent } from 'react';
import { MOVE_PROBLEM_TEXT, canBrowseInto, selectionMoveProblem } from '@sealbox/rules';
import { Button, CloseDialog, Dialog, Spinner, cx } from '@sealbox/ui';
import type { ItemView } from '../../model/items.ts';
import { ENCRYPTED_DIRECTORY } from '../../model/item-names.ts';
import { ANONYMOUS_UPLOADER } from '../../model/uploader.ts';
import { displayName, formatBytes, formatDate } from './format.ts';
import { Icon } from './icons.tsx';
import { NAME_TEXT, findNamed, nameProblem, nameTakenText, useFolder } from '../items/index.ts';
import { useBrowseScope } from './scope-context.ts';
import { sortItems } from './sorting.ts';
import { showsVersions } from './version-list.ts';
import { VersionsSection } from './VersionsSection.tsx';
import './buttons.css';
import './dialogs.css';

interface NameDialogProps {
  open: boolean;
  onClose: () => void;
  title: string;
  label: string;
  submitLabel: string;
  initial?: string;
  busy: boolean;
  /** The other items of the folder the name goes into (a name one of them has is refused). */
  siblings: readonly ItemView[];
  onSubmit: (name: string) => void;
}

/**
 * Create folder and rename (docs/product.md "Input rules": the name must be non-blank after
 * trimming). Names the browser refuses (@sealbox/rules names.ts) are explained under the field and
 * never sent.
 */
function NameDialog({ open, onClose, title, label, submitLabel, initial = '', busy, siblings, onSubmit }: NameDialogProps) {
  const [name, setName] = useState(initial);
  // A blank field says nothing until the user types or submits: Create is disabled meanwhile.
  const [touched, setTouched] = useState(false);
  const selectedOnce = useRef(false);
  const taken = findNamed(name, siblings);
  const problem = nameProblem(name) ?? (taken ? nameTakenText(name, taken.isDirectory) : undefined);
  const shown = problem === NAME_TEXT.blank && !touched ? undefined : problem;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!problem && !busy) onSubmit(name.trim());
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && onClose()}
      title={title}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form="name-dialog-form" disabled={name.trim() === '' || busy}>
            {submitLabel}
          </Button>
        </>
      }
    >
      <form id="name-dialog-form" className="form" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="name-dialog-input">{label}</label>
          <input
            id="name-dialog-input"
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              setTouched(true);
            }}
            onFocus={(e) => {
              // On opening, select the name without its extension, as file managers do; coming
              // back to the field later keeps the user's own caret or selection.
              if (selectedOnce.current) return;
              selectedOnce.current = true;
              const dot = e.target.value.lastIndexOf('.');
              e.target.setSelectionRange(0, dot > 0 ? dot : e.target.value.length);
            }}
            maxLength={255}
            autoComplete="off"
            spellCheck={false}
            aria-invalid={shown ? true : undefined}
            aria-describedby={shown ? 'name-dialog-problem' : undefined}
            data-autofocus
          />
          {shown && (
            <span id="name-dialog-problem" className="field__message field__message--error" role="alert">
              {shown}
            </span>
          )}
        </div>
      </form>
    </Dialog>
  );
}

export function CreateFolderDialog(props: {
  open: boolean;
  onClose: () => void;
  busy: boolean;
  siblings: readonly ItemView[];
  onCreate: (name: string) => void;
}) {
  return <NameDialog {...props} title="Create folder" label="Folder name" submitLabel="Create" onSubmit={props.onCreate} />;
}

export function RenameDialog({
  item,
  siblings,
  ...props
}: {
  item: ItemView;
  open: boolean;
  onClose: () => void;
  busy: boolean;
  /** Items that may share the item's folder (the item itself among them is ignored). */
  siblings: readonly ItemView[];
  onRename: (name: string) => void;
}) {
  return (
    <NameDialog
      {...props}
      title={`Rename ${item.isDirectory ? 'folder' : 'file'}`}
      label="New name"
      submitLabel="Rename"
      initial={item.name ?? ''}
      siblings={siblings.filter((other) => other.parentId === item.parentId && other.id !== item.id)}
      onSubmit={props.onRename}
    />
  );
}

/**
 * What a delete does, as its confirmation says it (docs/web-files.md "Trash"): for good (from the
 * trash, or where the server keeps none), into the user's own trash, or into the trash of the
 * owner (an editor's delete in a shared folder).
 */
export type DeleteFate = { kind: 'forever' } | { kind: 'trash' | 'owner-trash'; days: number };

export function deleteFate(
  items: readonly ItemView[],
  myUserId: string | undefined,
  retentionDays: number | undefined,
): DeleteFate {
  if (!retentionDays || items.some((item) => item.trashed)) return { kind: 'forever' };
  const mine = myUserId !== undefined && items.every((item) => item.ownerId === myUserId);
  return { kind: mine ? 'trash' : 'owner-trash', days: retentionDays };
}

/** The rest of the sentence after the name(s): "will be … ." */
export function deleteFateText(fate: DeleteFate, many: boolean, folders: boolean): string {
  const inside = folders ? (many ? ', folders with everything inside them' : ', with everything inside it') : '';
  const them = many ? 'them' : 'it';
  if (fate.kind === 'forever') return ` will be deleted permanently${inside}. This cannot be undone.`;
  if (fate.kind === 'trash')
    return ` will be moved to the trash${inside}. You can restore ${them} from there for ${fate.days} days.`;
  return ` will be deleted${inside}. ${many ? 'Their owner' : 'Its owner'} can restore ${them} from their trash for ${fate.days} days.`;
}

export function DeleteDialog({
  item,
  open,
  onClose,
  busy,
  onDelete,
  fate = { kind: 'forever' },
}: {
  item: ItemView;
  open: boolean;
  onClose: () => void;
  busy: boolean;
  onDelete: () => void;
  fate?: DeleteFate;
}) {
  const kind = item.isDirectory ? 'folder' : 'file';
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && onClose()}
      title={item.trashed ? `Delete ${kind} forever?` : `Delete ${kind}?`}
      description={
        <>
          <strong className="dialog-name">{displayName(item)}</strong>
          {deleteFateText(fate, false, item.isDirectory)}
        </>
      }
      footer={
        <>
          <Button variant="secondary" onClick={onClose} data-autofocus>
            Cancel
          </Button>
          <Button variant="danger" onClick={onDelete} disabled={busy}>
            {item.trashed ? 'Delete forever' : 'Delete'}
          </Button>
        </>
      }
    />
  );
}

/** The neutral hint shown while the dialog still shows the folder the item (or selection) is in. */
export const MOVE_CHOOSE_TEXT = 'Choose a folder to move this item to.';
export const moveChooseText = (count: number) =>
  count > 1 ? `Choose a folder to move these ${count} items to.` : MOVE_CHOOSE_TEXT;

interface Place {
  id: string | null;
  label: string;
  item: ItemView | null;
}

/**
 * A folder browser for choosing where to move `item` (docs/product.md "Input rules"). It opens at
 * the item's current folder's top (My Files), lists folders only, never enters the item itself, and
 * explains why the folder shown cannot take the item.
 */
export function MoveDialog({
  items,
  myUserId,
  open,
  onClose,
  busy,
  onMove,
  moveRoot,
}: {
  /** The item moved, or a selection (all in one folder). */
  items: readonly ItemView[];
  myUserId: string | undefined;
  open: boolean;
  onClose: () => void;
  busy: boolean;
  /** `label`: the destination's name, for the success toast. */
  onMove: (parentId: string | null, label: string) => void;
  /**
   * The top of the folders offered, when it is not My Files: in a link's scope the linked folder
   * (`rootId` null: the link's own top), in /shared the shared folder the item lives in.
   */
  moveRoot?: { rootId: string | null; rootLabel: string } | undefined;
}) {
  const scope = useBrowseScope();
  const top = moveRoot?.rootLabel ?? 'My Files';
  const [path, setPathState] = useState<Place[]>([{ id: null, label: top, item: null }]);
  // Until the user browses, the folder shown is only where the dialog opened: no red refusal yet.
  const [browsed, setBrowsed] = useState(false);
  const setPath = (next: Place[]) => {
    setBrowsed(true);
    setPathState(next);
  };
  const here = path.at(-1)!;
  // Not fetched again while the move runs: the refresh after it would fetch and open the target's
  // new contents (thousands of names for a large selection) behind a dialog about to close.
  const listing = useFolder(scope, here.id ?? moveRoot?.rootId ?? null, { enabled: open && !busy });
  // Through a link or a share the top is that folder itself (its listing's root), never My Files.
  const rooted = moveRoot && here.id === null;
  const hereItem = rooted ? (listing.data?.folder ?? null) : here.item;
  const hereId = rooted ? (listing.data?.folder?.id ?? null) : here.id;
  const folders = sortItems(
    (listing.data?.items ?? []).filter((i) => i.isDirectory),
    { sortBy: 'name', sortOrder: 'asc' },
  );
  const target = { folder: hereItem, path: path.flatMap((p) => (p.id ? [p.id] : [])) };
  const problem = scope.kind === 'link' && hereId === null ? 'no-permission' : selectionMoveProblem(items, target, myUserId);
  const shownProblem = problem === 'current-parent' && !browsed ? null : problem;

  return (
    <Dialog
      open={open}
      size="lg"
      onOpenChange={(next) => !next && onClose()}
      title={items.length === 1 ? `Move ${displayName(items[0]!)}` : `Move ${items.length} items`}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => onMove(hereId, here.label)} disabled={problem !== null || busy}>
            Move here
          </Button>
        </>
      }
    >
      <div className="move">
        <nav className="move__path" aria-label="Move to">
          {path.map((place, index) => (
            <span key={place.id ?? 'root'} className="move__crumb">
              {index > 0 && <span aria-hidden="true">/</span>}
              {index === path.length - 1 ? (
                <strong aria-current="location">{place.label}</strong>
              ) : (
                <button type="button" className="link-button" onClick={() => setPath(path.slice(0, index + 1))}>
                  {place.label}
                </button>
              )}
            </span>
          ))}
        </nav>
        <ul className="move__list" aria-label="Folders">
          {listing.isPending ? (
            <li className="move__empty">
              <Spinner size={18} label="Loading folders" />
            </li>
          ) : folders.length === 0 ? (
            <li className="move__empty">No folders here</li>
          ) : (
            folders.map((folder) => {
              const moved = items.some((item) => item.id === folder.id);
              const enterable = items.every((item) => canBrowseInto(item, folder)) && folder.decrypted;
              const label = folder.name ?? ENCRYPTED_DIRECTORY;
              return (
                <li key={folder.id}>
                  <button
                    type="button"
                    className={cx('move__folder', !enterable && 'move__folder--disabled')}
                    disabled={!enterable}
                    onClick={() => setPath([...path, { id: folder.id, label, item: folder }])}
                    title={moved ? MOVE_PROBLEM_TEXT.itself : undefined}
                  >
                    {Icon.folder(18)}
                    <span>{label}</span>
                    {moved ? <span className="move__note">(this folder)</span> : Icon.chevronRight(16)}
                  </button>
                </li>
              );
            })
          )}
        </ul>
        <p className={cx('move__status', shownProblem && 'move__status--problem')} role="status">
          {shownProblem ? MOVE_PROBLEM_TEXT[shownProblem] : problem ? moveChooseText(items.length) : `Move to ${here.label}`}
        </p>
      </div>
    </Dialog>
  );
}

export function InfoDialog({
  item,
  users,
  myUserId,
  location,
  open,
  onClose,
}: {
  item: ItemView;
  users: Record<string, string>;
  myUserId: string | undefined;
  location: string;
  open: boolean;
  onClose: () => void;
}) {
  const who = (id: string | null) =>
    id === null ? ANONYMOUS_UPLOADER : `${users[id] ?? 'Unknown'}${id === myUserId ? ' (you)' : ''}`;
  const rows: Array<[string, string]> = [
    ['Name', displayName(item)],
    ['Type', item.isDirectory ? 'Folder' : (item.mimeType ?? 'Unknown')],
    ...(item.isDirectory ? [] : ([['Extension', item.extension || 'None']] as Array<[string, string]>)),
    ...(item.isDirectory
      ? []
      : ([
          ['Size', `${formatBytes(item.size)} (${item.size.toLocaleString()} bytes)`],
          ['Stored size', `${formatBytes(item.cipherSize)} encrypted`],
        ] as Array<[string, string]>)),
    [item.trashed ? 'Deleted from' : 'Location', location],
    ...(item.trashed
      ? ([
          ['Deleted', formatDate(item.trashed.at)],
          ['Deleted by', who(item.trashed.by)],
        ] as Array<[string, string]>)
      : []),
    ['Created', formatDate(item.createdAt)],
    ['Modified', formatDate(item.modifiedAt)],
    ['Owner', who(item.ownerId)],
    ['Uploader', who(item.uploaderId)],
    ['Permission', item.editPermission ? 'Can edit' : 'View only'],
    ['Encryption', item.decrypted ? 'Decrypted in this browser' : 'Could not be decrypted'],
    ['Id', item.id],
  ];
  return (
    <CloseDialog
      open={open}
      onClose={onClose}
      title={`${item.isDirectory ? 'Folder' : 'File'} info`}
      size={showsVersions(item) ? 'lg' : 'md'}
    >
      <dl className="info-list">
        {rows.map(([term, value]) => (
          <div key={term} className="info-list__row">
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {showsVersions(item) && (
        <VersionsSection item={item} myUserId={myUserId} who={who} knows={(id) => users[id] !== undefined} />
      )}
    </CloseDialog>
  );
}
