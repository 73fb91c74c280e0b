import type { ButtonHTMLAttributes, Ref } from 'react';
import { Slot } from 'radix-ui';
import { cx } from './cx.ts';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';
export type ButtonSize = 'sm' | 'md' | 'lg';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Render the single child (e.g. a router Link) with button styling instead of a <button>. */
  asChild?: boolean;
  ref?: Ref<HTMLButtonElement>;
}

export function Button({ variant = 'primary', size = 'md', asChild = false, className, type, ...rest }: ButtonProps) {
  const classes = cx('sb-button', `sb-button--${variant}`, size !== 'md' && `sb-button--${size}`, className);
  if (asChild) return <Slot.Root className={classes} {...rest} />;
  // type="button" by default: a bare <button> inside a form would otherwise submit it.
  return <button type={type ?? 'button'} className={classes} {...rest} />;
}
