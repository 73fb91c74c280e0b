import type { ReactNode } from 'react';
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
 */
export function Menu({ trigger, children, align = 'end', side = 'bottom', label }: MenuProps) {
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger asChild>{trigger}</DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          className="sb-menu"
          align={align}
          side={side}
          sideOffset={4}
          collisionPadding={8}
          aria-label={label}
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
