/**
 * Live updates own no server state: their events invalidate the keys other features own
 * (invalidations.ts), taken from those features' index.
 */
export {};
