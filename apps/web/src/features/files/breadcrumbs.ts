/**
 * docs/product.md "Screens": Home plus the folder path. Long paths collapse rather than wrap, at
 * any width: first, an ellipsis holding the hidden folders, and the last two, then only the last
 * (Breadcrumbs.tsx measures which one fits).
 */
export interface Crumb {
  /** null = Home (the top level). */
  id: string | null;
  label: string;
}

export type CrumbSlot = { kind: 'crumb'; crumb: Crumb } | { kind: 'ellipsis'; hidden: Crumb[] };

/** How many crumbs after the ellipsis each step shows: all, the last two, the last one. */
export const COLLAPSE_STEPS = [Number.POSITIVE_INFINITY, 2, 1] as const;

/** The first crumb, an ellipsis holding the middle, and the last `keepLast`; the whole path when nothing would be hidden. */
export function collapseCrumbs(crumbs: readonly Crumb[], keepLast: number): CrumbSlot[] {
  if (crumbs.length <= keepLast + 1) return crumbs.map((crumb) => ({ kind: 'crumb', crumb }));
  return [
    { kind: 'crumb', crumb: crumbs[0]! },
    { kind: 'ellipsis', hidden: crumbs.slice(1, -keepLast) },
    ...crumbs.slice(-keepLast).map((crumb): CrumbSlot => ({ kind: 'crumb', crumb })),
  ];
}
