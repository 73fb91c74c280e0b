/** SPEC 2: Home plus the folder path; on small screens long paths collapse to first … last. */
export interface Crumb {
  /** null = Home (the top level). */
  id: string | null;
  label: string;
}

export type CrumbSlot = { kind: 'crumb'; crumb: Crumb } | { kind: 'ellipsis'; hidden: Crumb[] };

/** Paths longer than `max` show the first crumb, an ellipsis holding the rest, and the last. */
export function collapseCrumbs(crumbs: readonly Crumb[], max: number): CrumbSlot[] {
  if (crumbs.length <= Math.max(max, 2)) return crumbs.map((crumb) => ({ kind: 'crumb', crumb }));
  return [
    { kind: 'crumb', crumb: crumbs[0]! },
    { kind: 'ellipsis', hidden: crumbs.slice(1, -1) },
    { kind: 'crumb', crumb: crumbs.at(-1)! },
  ];
}
