/**
 * happy-dom has no `isSecureContext`; the pages that need keys check it (crypto/secure-context.ts),
 * so tests run as a page on https:// or localhost would.
 */
Object.defineProperty(globalThis, 'isSecureContext', { value: true, configurable: true });
