export { Button, type ButtonProps, type ButtonSize, type ButtonVariant } from './Button.tsx';
export { Card } from './Card.tsx';
export { Spinner, type SpinnerProps } from './Spinner.tsx';
export { StrokeIcon, type StrokeIconProps } from './StrokeIcon.tsx';
export {
  Toaster,
  toast,
  dismissToast,
  useToasts,
  TOAST_LIMIT,
  TOAST_DURATION_MS,
  ACTION_TOAST_DURATION_MS,
  type Toast,
  type ToastAction,
  type ToastKind,
} from './toast.tsx';
export {
  useTheme,
  setThemePreference,
  readThemePreference,
  applyThemePreference,
  parseThemePreference,
  THEME_STORAGE_KEY,
  type ThemePreference,
  type ResolvedTheme,
} from './theme.ts';
export { cx } from './cx.ts';
export { CloseDialog, Dialog, type CloseDialogProps, type DialogProps } from './Dialog.tsx';
export {
  Menu,
  MenuChoices,
  MenuItem,
  MenuSeparator,
  MenuLabel,
  type MenuChoice,
  type MenuProps,
  type MenuItemProps,
} from './Menu.tsx';
export { Tooltip, TooltipProvider, type TooltipProps } from './Tooltip.tsx';
export { UsageBar, type UsageBarProps } from './UsageBar.tsx';
