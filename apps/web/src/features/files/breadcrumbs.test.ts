import { describe, expect, it } from 'vitest';
import { COLLAPSE_STEPS, collapseCrumbs, type Crumb } from './breadcrumbs.ts';

const path = (n: number): Crumb[] => [
  { id: null, label: 'Home' },
  ...Array.from({ length: n }, (_, i) => ({ id: `f${i + 1}`, label: `Folder ${i + 1}` })),
];
const labels = (crumbs: readonly Crumb[], keepLast: number) =>
  collapseCrumbs(crumbs, keepLast).map((slot) => (slot.kind === 'crumb' ? slot.crumb.label : '…'));

describe('collapseCrumbs', () => {
  it('shows every crumb at the first step', () => {
    expect(labels(path(8), COLLAPSE_STEPS[0])).toHaveLength(9);
  });

  it('collapses to first … last two, the hidden ones in the ellipsis', () => {
    const slots = collapseCrumbs(path(8), 2);
    expect(labels(path(8), 2)).toEqual(['Home', '…', 'Folder 7', 'Folder 8']);
    expect(slots[1]).toEqual({ kind: 'ellipsis', hidden: path(8).slice(1, 7) });
  });

  it('then to first … last', () => {
    expect(labels(path(8), 1)).toEqual(['Home', '…', 'Folder 8']);
    expect(labels(path(2), 1)).toEqual(['Home', '…', 'Folder 2']);
  });

  it('never makes an ellipsis that hides nothing', () => {
    expect(labels(path(2), 2)).toEqual(['Home', 'Folder 1', 'Folder 2']);
    expect(labels(path(1), 1)).toEqual(['Home', 'Folder 1']);
    expect(labels(path(0), 1)).toEqual(['Home']);
  });
});
