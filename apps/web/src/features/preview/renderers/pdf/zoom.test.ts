import { describe, expect, it } from 'vitest';
import { clampZoom, parsePage, ZOOM_BUTTON_STEP, ZOOM_MAX, ZOOM_MIN, ZOOM_WHEEL_STEP, zoomPercent } from './zoom.ts';

describe('zoom (docs/product.md "Limits": 0.2 to 5)', () => {
  it('stops at the limits', () => {
    expect(clampZoom(0.1)).toBe(ZOOM_MIN);
    expect(clampZoom(-3)).toBe(ZOOM_MIN);
    expect(clampZoom(5.2)).toBe(ZOOM_MAX);
    expect(clampZoom(Number.POSITIVE_INFINITY)).toBe(ZOOM_MAX);
  });

  it('adds steps exactly: 1 down by buttons reaches 0.2 in four, up by the wheel reaches 1.3 in three', () => {
    let zoom = 1;
    for (let i = 0; i < 4; i++) zoom = clampZoom(zoom - ZOOM_BUTTON_STEP);
    expect(zoom).toBe(0.2);
    zoom = 1;
    for (let i = 0; i < 3; i++) zoom = clampZoom(zoom + ZOOM_WHEEL_STEP);
    expect(zoom).toBe(1.3);
    expect(zoomPercent(zoom)).toBe('130%');
  });
});

describe('the page box', () => {
  it('takes digits only, within 1 to the page count', () => {
    expect(parsePage('3', 12)).toBe(3);
    expect(parsePage('12', 12)).toBe(12);
    expect(parsePage('013', 20)).toBe(13);
    for (const bad of ['', '0', '13', '-1', '1.5', '2e1', ' 2', 'x']) expect(parsePage(bad, 12)).toBeNull();
  });
});
