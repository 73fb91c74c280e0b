import type { ReactNode } from 'react';
import { Tooltip as RadixTooltip } from 'radix-ui';
import './overlays.css';

export interface TooltipProps {
  /** The text; nothing is wrapped when it is empty. */
  content: ReactNode;
  children: ReactNode;
  side?: 'top' | 'right' | 'bottom' | 'left';
}

/**
 * One provider for the app (mount once near the root, or around a screen). Tooltips hold text
 * only, so their content is not hoverable: leaving a trigger closes its tooltip at once. With
 * hoverable content the provider kept the pointer "in transit" towards the open tooltip until the
 * next pointer move, so a jump straight onto another trigger left the first tooltip open and
 * the second never opened (issue 14).
 */
export function TooltipProvider({ children }: { children: ReactNode }) {
  return (
    <RadixTooltip.Provider delayDuration={300} disableHoverableContent>
      {children}
    </RadixTooltip.Provider>
  );
}

/**
 * A tooltip on hover and keyboard focus. Disabled buttons get no pointer or focus events, so
 * the trigger is a focusable wrapper span: the reason for a disabled control stays reachable.
 */
export function Tooltip({ content, children, side = 'top' }: TooltipProps) {
  if (content === undefined || content === null || content === '' || content === false) return <>{children}</>;
  return (
    <RadixTooltip.Root>
      <RadixTooltip.Trigger asChild>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a disabled button takes no focus; its reason must stay reachable by keyboard. */}
        <span className="sb-tooltip-trigger" tabIndex={0}>
          {children}
        </span>
      </RadixTooltip.Trigger>
      <RadixTooltip.Portal>
        <RadixTooltip.Content className="sb-tooltip" side={side} sideOffset={6} collisionPadding={8}>
          {content}
          <RadixTooltip.Arrow className="sb-tooltip__arrow" />
        </RadixTooltip.Content>
      </RadixTooltip.Portal>
    </RadixTooltip.Root>
  );
}
