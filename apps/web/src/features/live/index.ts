/**
 * Live updates (docs/product.md "States" and "Limits"): the socket that keeps lists fresh, its
 * status, and the 5 s polling fallback's switch.
 */
export { ConnectionBanner, OFFLINE_BANNER_TEXT, useOnline } from './ConnectionBanner.tsx';
export { LiveStatusIndicator } from './LiveStatusIndicator.tsx';
export { useLiveStatus } from './status.ts';
export { useLinkLiveUpdates, useLiveUpdates } from './useLiveUpdates.ts';
