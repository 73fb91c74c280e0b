import { Menu, MenuItem } from '@sealbox/ui';
import { collapseCrumbs, type Crumb } from './breadcrumbs.ts';
import { Icon } from './icons.tsx';

export interface BreadcrumbsProps {
  crumbs: Crumb[];
  /** Collapse long paths to first … last (small screens). */
  compact: boolean;
  onNavigate: (id: string | null) => void;
}

export function Breadcrumbs({ crumbs, compact, onNavigate }: BreadcrumbsProps) {
  const slots = collapseCrumbs(crumbs, compact ? 3 : Number.POSITIVE_INFINITY);
  return (
    <nav className="crumbs" aria-label="Breadcrumb">
      <ol>
        {slots.map((slot, index) => {
          const last = index === slots.length - 1;
          return (
            <li key={slot.kind === 'crumb' ? (slot.crumb.id ?? 'home') : 'ellipsis'}>
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
                <span className="crumbs__item crumbs__current" aria-current="page">
                  {slot.crumb.id === null && Icon.home(16)}
                  <span>{slot.crumb.label}</span>
                </span>
              ) : (
                <button type="button" className="crumbs__item" onClick={() => onNavigate(slot.crumb.id)}>
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
