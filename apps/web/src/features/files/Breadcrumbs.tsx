import { useLayoutEffect, useRef, useState } from 'react';
import { Menu, MenuItem } from '@sealbox/ui';
import { COLLAPSE_STEPS, collapseCrumbs, type Crumb } from './breadcrumbs.ts';
import { Icon } from './icons.tsx';
import './breadcrumbs.css';
import './buttons.css';

/** The line overflows, or the current folder's name is cut: hide middle folders before cutting it. */
function tooWide(list: HTMLElement): boolean {
  const current = list.querySelector<HTMLElement>('.crumbs__current > span:last-child');
  return list.scrollWidth > list.clientWidth + 1 || (current !== null && current.scrollWidth > current.clientWidth + 1);
}

export interface BreadcrumbsProps {
  crumbs: Crumb[];
  onNavigate: (id: string | null) => void;
}

/**
 * The path on one line at any width: when it does not fit, the middle folders go into an
 * ellipsis menu (first … last two, then first … last), and the current folder, always shown,
 * is cut with an ellipsis and its whole name as a tooltip.
 */
export function Breadcrumbs({ crumbs, onNavigate }: BreadcrumbsProps) {
  const list = useRef<HTMLOListElement>(null);
  const [step, setStep] = useState(0);
  const path = crumbs.map((crumb) => `${crumb.id}:${crumb.label}`).join('/');

  // Measured before paint: start from the whole path whenever it or the width changes, and
  // take the next step while the line overflows.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new path starts the measuring again
  useLayoutEffect(() => setStep(0), [path]);
  useLayoutEffect(() => {
    const element = list.current;
    if (element && step < COLLAPSE_STEPS.length - 1 && tooWide(element)) setStep(step + 1);
  });
  useLayoutEffect(() => {
    const element = list.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    let width = element.clientWidth;
    const observer = new ResizeObserver(() => {
      if (element.clientWidth === width) return;
      width = element.clientWidth;
      setStep(0);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const slots = collapseCrumbs(crumbs, COLLAPSE_STEPS[step] ?? 1);
  return (
    <nav className="crumbs" aria-label="Breadcrumb">
      <ol ref={list}>
        {slots.map((slot, index) => {
          const last = index === slots.length - 1;
          return (
            <li
              key={slot.kind === 'crumb' ? (slot.crumb.id ?? 'home') : 'ellipsis'}
              className={last ? 'crumbs__last' : undefined}
            >
              {slot.kind === 'ellipsis' ? (
                <Menu
                  align="start"
                  label="Hidden folders"
                  trigger={
                    <button type="button" className="crumbs__item crumbs__ellipsis" aria-label="Show hidden folders">
                      …
                    </button>
                  }
                >
                  {slot.hidden.map((crumb) => (
                    <MenuItem key={crumb.id ?? 'home'} icon={Icon.folder(16)} onSelect={() => onNavigate(crumb.id)}>
                      {crumb.label}
                    </MenuItem>
                  ))}
                </Menu>
              ) : last ? (
                <span className="crumbs__item crumbs__current" aria-current="page" title={slot.crumb.label}>
                  {slot.crumb.id === null && Icon.home(16)}
                  <span>{slot.crumb.label}</span>
                </span>
              ) : (
                <button type="button" className="crumbs__item" onClick={() => onNavigate(slot.crumb.id)} title={slot.crumb.label}>
                  {slot.crumb.id === null && Icon.home(16)}
                  <span>{slot.crumb.label}</span>
                </button>
              )}
              {!last && (
                <span className="crumbs__sep" aria-hidden="true">
                  /
                </span>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
