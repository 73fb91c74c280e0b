import {
  cloneElement,
  isValidElement,
  useEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type PointerEvent,
  type ReactNode,
} from 'react';
import { DropdownMenu } from 'radix-ui';
import { cx } from './cx.ts';
import { StrokeIcon } from './StrokeIcon.tsx';
import './overlays.css';

export interface MenuProps {
  /** The element that opens the menu (rendered as is: pass a button). */
  trigger: ReactNode;
  children: ReactNode;
  align?: 'start' | 'center' | 'end';
  side?: 'top' | 'right' | 'bottom' | 'left';
  /** Accessible name of the menu itself. */
  label?: string;
}

/**
 * Radix DropdownMenu (roving focus, arrow keys, typeahead, Escape). Non-modal on purpose: the
 * modal variant locks page scroll by injecting a <style> element, which the CSP refuses.
 *
 * Until it is first opened, a menu is only its trigger: each open Radix menu root listens on the
 * document, and a listing of 10,000 rows with one menu each spent seconds adding and removing
 * those listeners (bench/batch). The trigger opens it as Radix's would: a primary pointer press,
 * or Enter, Space or ArrowDown.
 */
export function Menu(props: MenuProps) {
  const [open, setOpen] = useState<boolean | undefined>(undefined);
  // Radix focuses the first item when a key opened the menu, which it learns from the document
  // listener that was not there yet at the first opening.
  const [byKey, setByKey] = useState(false);
  if (open !== undefined)
    return <LiveMenu {...props} open={open} onOpenChange={setOpen} focusFirst={byKey} onFocused={() => setByKey(false)} />;
  if (!isValidElement<TriggerProps>(props.trigger)) return props.trigger;
  const own = props.trigger.props;
  return cloneElement(props.trigger, {
    'aria-haspopup': 'menu',
    'aria-expanded': false,
    'data-state': 'closed',
    onPointerDown: (event: PointerEvent<HTMLElement>) => {
      own.onPointerDown?.(event);
      if (event.defaultPrevented || event.button !== 0 || event.ctrlKey) return;
      // As Radix does: the press, not the click, opens it, and the trigger keeps the focus.
      event.preventDefault();
      setOpen(true);
    },
    onKeyDown: (event: KeyboardEvent<HTMLElement>) => {
      own.onKeyDown?.(event);
      if (event.defaultPrevented || !OPENING_KEYS.has(event.key)) return;
      event.preventDefault();
      setByKey(true);
      setOpen(true);
    },
  });
}

const OPENING_KEYS = new Set(['Enter', ' ', 'ArrowDown']);

interface TriggerProps {
  'aria-haspopup'?: 'menu';
  'aria-expanded'?: boolean;
  'data-state'?: string;
  onPointerDown?: (event: PointerEvent<HTMLElement>) => void;
  onKeyDown?: (event: KeyboardEvent<HTMLElement>) => void;
}

function LiveMenu({
  trigger,
  children,
  align = 'end',
  side = 'bottom',
  label,
  open,
  onOpenChange,
  focusFirst,
  onFocused,
}: MenuProps & { open: boolean; onOpenChange: (open: boolean) => void; focusFirst: boolean; onFocused: () => void }) {
  const content = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open || !focusFirst) return;
    // After Radix's own focus on opening (the menu itself), as its keyboard opening does.
    const frame = requestAnimationFrame(() => {
      content.current?.querySelector<HTMLElement>('[role^="menuitem"]:not([data-disabled])')?.focus({ preventScroll: true });
      onFocused();
    });
    return () => cancelAnimationFrame(frame);
  }, [open, focusFirst, onFocused]);
  return (
    <DropdownMenu.Root modal={false} open={open} onOpenChange={onOpenChange}>
      <DropdownMenu.Trigger asChild>{trigger}</DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          className="sb-menu"
          align={align}
          side={side}
          sideOffset={4}
          collisionPadding={8}
          aria-label={label}
          ref={content}
        >
          {children}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

export interface MenuItemProps {
  children: ReactNode;
  onSelect?: () => void;
  disabled?: boolean;
  /** Why the item is disabled; shown under its label and announced with it. */
  hint?: string;
  icon?: ReactNode;
  danger?: boolean;
}

export function MenuItem({ children, onSelect, disabled, hint, icon, danger }: MenuItemProps) {
  return (
    <DropdownMenu.Item
      className={cx('sb-menu__item', danger && 'sb-menu__item--danger')}
      disabled={disabled}
      onSelect={onSelect}
      title={hint}
    >
      {icon && (
        <span className="sb-menu__icon" aria-hidden="true">
          {icon}
        </span>
      )}
      <span className="sb-menu__label">
        {children}
        {hint && <span className="sb-menu__hint">{hint}</span>}
      </span>
    </DropdownMenu.Item>
  );
}

export function MenuSeparator() {
  return <DropdownMenu.Separator className="sb-menu__separator" />;
}

export function MenuLabel({ children }: { children: ReactNode }) {
  return <DropdownMenu.Label className="sb-menu__group-label">{children}</DropdownMenu.Label>;
}

export interface MenuChoice<T extends string> {
  value: T;
  label: ReactNode;
  icon?: ReactNode;
}

/** A one-of-many choice inside a Menu (radix RadioGroup: arrow keys, Enter, a check on the chosen one). */
export function MenuChoices<T extends string>({
  value,
  onChange,
  choices,
}: {
  value: T | undefined;
  onChange: (value: T) => void;
  choices: readonly MenuChoice<T>[];
}) {
  return (
    <DropdownMenu.RadioGroup value={value ?? ''} onValueChange={(next) => onChange(next as T)}>
      {choices.map((choice) => (
        <DropdownMenu.RadioItem key={choice.value} value={choice.value} className="sb-menu__item sb-menu__item--choice">
          {choice.icon && (
            <span className="sb-menu__icon" aria-hidden="true">
              {choice.icon}
            </span>
          )}
          <span className="sb-menu__label">{choice.label}</span>
          <DropdownMenu.ItemIndicator className="sb-menu__check">
            <StrokeIcon size={16} strokeWidth="2.5" strokeLinecap={undefined} strokeLinejoin={undefined}>
              <path d="M5 12.5l4.5 4.5L19 7.5" />
            </StrokeIcon>
          </DropdownMenu.ItemIndicator>
        </DropdownMenu.RadioItem>
      ))}
    </DropdownMenu.RadioGroup>
  );
}
