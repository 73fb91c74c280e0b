/**
 * Whether this page can make keys at all. Browsers give WebCrypto (crypto.subtle) and service
 * workers only to secure contexts: HTTPS, or localhost (docs/operations.md "HTTPS"). Plain HTTP on
 * a LAN address is not one, and every key operation would fail there, so the pages that need keys
 * say so up front instead of offering forms that cannot work.
 */
export interface ContextFacts {
  isSecureContext?: boolean;
  crypto?: { subtle?: unknown };
}

/** True when keys cannot be made here; `scope` is the page's global (a stand-in in tests). */
export function lacksSecureContext(scope: ContextFacts = globalThis): boolean {
  return scope.isSecureContext !== true || !scope.crypto?.subtle;
}
