/**
 * The listing's selection and keyboard (issue 14), for the list and the grid alike.
 *
 * Mouse: a click on an item selects it alone, Ctrl/Cmd+click toggles it, Shift+click selects the
 * range from the anchor; its checkbox toggles (Shift: range). Keyboard: a roving tabindex (one
 * item is in the Tab order, so Tab goes toolbar -> listing -> pages), arrows move (by columns in
 * the grid), Shift+arrows extend, Space toggles, Ctrl/Cmd+A selects all, Enter opens, F2
 * renames, Delete asks to delete, Escape clears. Keys typed in a field, or reaching the listing
 * through a portal (an open item menu), are left alone; an open dialog makes the page inert.
 */
import {
  useEffect,
  useMemo,
  useRef,
  useState,
  type FocusEvent,
  type KeyboardEvent,
  type MouseEvent,
  type SyntheticEvent,
} from 'react';
import { toast } from '@sealbox/ui';
import type { ItemView } from '../../model/items.ts';
import type { ItemAction } from './ItemMenu.tsx';
import { useAfterMove } from './mutations.ts';
import { itemBlocks, opensAt, selectionBlocked, useItemRules, type BulkAction } from './item-rules.ts';
import {
  EMPTY_SELECTION,
  clickSelect,
  extendTo,
  isMoveKey,
  moveIndex,
  prune,
  selectAll,
  selectedIn,
  toggle,
  type Selection,
} from './selection.ts';

export interface ListingOptions {
  items: readonly ItemView[];
  /** 1 for the list; the grid's column count. */
  columns: number;
  myUserId: string | undefined;
  downloadBlocked: string | undefined;
  onOpen: (item: ItemView) => void;
  onAction: (action: ItemAction, item: ItemView) => void;
  onSelection: (action: BulkAction, items: ItemView[]) => void;
}

/** What the list and the grid need from the listing, per item and for the header. */
export interface ListingControl {
  isSelected: (id: string) => boolean;
  /** The item in the Tab order (the roving tabindex). */
  focusId: string | undefined;
  onItemClick: (event: MouseEvent, item: ItemView) => void;
  onCheck: (event: MouseEvent, item: ItemView) => void;
  onItemFocus: (event: FocusEvent, item: ItemView) => void;
  all: 'all' | 'some' | 'none';
  onCheckAll: () => void;
}

/** The element that takes focus for an item: its name. */
export const FOCUS_TARGET = '[data-focus-target]';

/** Whether a click or key was meant for a control inside the item rather than the item. */
function inControl(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest('input, [data-item-menu]') !== null;
}

/**
 * Whether an event happened on the item's own elements: React also bubbles events from the
 * item's menu, which sits in a portal elsewhere in the page, through the item.
 */
export function onItem(event: SyntheticEvent): boolean {
  return event.target instanceof Node && (event.currentTarget as Node).contains(event.target);
}

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && target.type !== 'checkbox';
}

export function useSelectionKeyboard({
  items,
  columns,
  myUserId,
  downloadBlocked,
  onOpen,
  onAction,
  onSelection,
}: ListingOptions) {
  const rules = useItemRules();
  const order = useMemo(() => items.map((item) => item.id), [items]);
  const [raw, setSelection] = useState<Selection>(EMPTY_SELECTION);
  // Moved, deleted or paged away: only what is shown stays selected.
  const selection = prune(raw, order);
  // A move clears the selection (docs/web-files.md "Phone and browser conventions"): what was
  // selected would otherwise come back selected with the moved items, or ride along unseen.
  useAfterMove(() => setSelection(EMPTY_SELECTION));
  const [focused, setFocused] = useState<string | undefined>(undefined);
  const focusId = focused !== undefined && order.includes(focused) ? focused : order[0];
  const area = useRef<HTMLDivElement>(null);
  const [shortcutsOpen, setShortcutsOpen] = useState(false);

  const selected = useMemo(() => {
    const byId = new Map(items.map((item) => [item.id, item]));
    return selectedIn(selection, order).map((id) => byId.get(id)!);
  }, [selection, order, items]);

  const focusItem = (id: string) => {
    setFocused(id);
    area.current?.querySelector<HTMLElement>(`[data-item-id="${CSS.escape(id)}"] ${FOCUS_TARGET}`)?.focus();
  };

  /** Delete, Move or Download of the selection, or of the focused item when nothing is selected. */
  const act = (action: BulkAction | 'rename', focusedItem: ItemView | undefined) => {
    const targets =
      action === 'rename'
        ? focusedItem
          ? [focusedItem]
          : []
        : selected.length > 0
          ? selected
          : focusedItem
            ? [focusedItem]
            : [];
    if (targets.length === 0) return;
    const why =
      action === 'rename'
        ? itemBlocks(targets[0]!, rules, myUserId, downloadBlocked).rename
        : selectionBlocked(targets, action, rules, myUserId, downloadBlocked);
    if (why) toast(why, 'info');
    else if (action === 'rename') onAction('rename', targets[0]!);
    else onSelection(action, targets);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const target = event.target;
    if (!(target instanceof Node) || !area.current?.contains(target) || isTyping(target)) return;
    if (target instanceof Element && target.closest('[data-item-menu]')) return;
    const index = focusId === undefined ? -1 : order.indexOf(focusId);
    const current = index >= 0 ? items[index] : undefined;
    const command = event.ctrlKey || event.metaKey;
    // Enter and Space belong to the buttons and boxes of the bar and the header: only on an item
    // do they open or select it.
    const onAnItem = target instanceof Element && target.closest('[data-item-id]') !== null;
    if (isMoveKey(event.key) && !event.altKey) {
      event.preventDefault();
      const next = items[moveIndex(index, event.key, items.length, columns)];
      if (!next) return;
      // Shift extends from the anchor, or from where the keyboard was when there is none.
      const from = selection.anchor === null && current ? { ...selection, anchor: current.id } : selection;
      if (event.shiftKey) setSelection(extendTo(from, order, next.id));
      focusItem(next.id);
    } else if (event.key === ' ' && current && onAnItem) {
      event.preventDefault();
      setSelection(event.shiftKey ? extendTo(selection, order, current.id) : toggle(selection, current.id));
    } else if (command && event.key.toLowerCase() === 'a') {
      event.preventDefault();
      setSelection(selectAll(order));
    } else if (event.key === 'Enter' && current && onAnItem && !inControl(target)) {
      event.preventDefault();
      if (opensAt(current)) onOpen(current);
    } else if (event.key === 'F2') {
      event.preventDefault();
      act('rename', current);
    } else if (event.key === 'Delete') {
      event.preventDefault();
      act('delete', current);
    } else if (event.key === 'Escape' && selection.ids.size > 0) {
      event.preventDefault();
      setSelection(EMPTY_SELECTION);
    }
  };

  // '?' anywhere on the page (not while typing, nor under an open dialog) lists the shortcuts.
  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key !== '?' || event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return;
      if (document.querySelector('dialog:modal, [role="menu"]')) return;
      event.preventDefault();
      setShortcutsOpen(true);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const control: ListingControl = {
    isSelected: (id) => selection.ids.has(id),
    focusId,
    onItemClick: (event, item) => {
      if (!onItem(event) || inControl(event.target)) return;
      const modifiers = { shift: event.shiftKey, toggle: event.ctrlKey || event.metaKey };
      // A plain click on the name opens (the name's own handler); with a modifier it selects.
      if (!modifiers.shift && !modifiers.toggle && event.target instanceof Element && event.target.closest(FOCUS_TARGET)) return;
      if (modifiers.shift) event.preventDefault(); // no text selection across the range
      setSelection(clickSelect(selection, order, item.id, modifiers));
      setFocused(item.id);
    },
    onCheck: (event, item) => {
      event.stopPropagation();
      setSelection(event.shiftKey ? extendTo(selection, order, item.id) : toggle(selection, item.id));
      setFocused(item.id);
    },
    onItemFocus: (event, item) => {
      if (onItem(event)) setFocused(item.id);
    },
    all: selection.ids.size === 0 ? 'none' : selection.ids.size === order.length ? 'all' : 'some',
    onCheckAll: () => setSelection(selection.ids.size === order.length ? EMPTY_SELECTION : selectAll(order)),
  };

  return {
    area,
    onKeyDown,
    control,
    selected,
    clear: () => setSelection(EMPTY_SELECTION),
    act: (action: BulkAction) => act(action, undefined),
    shortcuts: { open: shortcutsOpen, onClose: () => setShortcutsOpen(false), show: () => setShortcutsOpen(true) },
  };
}
