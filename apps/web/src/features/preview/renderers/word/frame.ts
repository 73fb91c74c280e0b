/**
 * The Word preview's frame document. It is a srcdoc frame, so it inherits the app's CSP: its one
 * <style> is allowed by its sha256 hash in style-src (apps/server/src/http/plugins/security-headers.ts),
 * and nothing else of style, script or fetch is. e2e/journeys/preview/preview-security.test.ts checks the hash
 * matches. Change FRAME_CSS only together with that hash.
 */
export const FRAME_CSS =
  ':root{color-scheme:light}' +
  'html{background:#fff;color:#1b1f24}' +
  'body{margin:0;font:16px/1.5 Calibri,Carlito,"Segoe UI",system-ui,sans-serif;overflow-wrap:break-word}' +
  'main{box-sizing:border-box;max-width:52rem;margin:0 auto;padding:3rem 3.5rem}' +
  '@media (max-width:40rem){main{padding:1.25rem 1rem}}' +
  'h1,h2,h3,h4,h5,h6{line-height:1.25;margin:1.2em 0 .5em}' +
  'p{margin:0 0 .75em}' +
  'main>:first-child{margin-top:0}' +
  'td>p:last-child,th>p:last-child{margin:0}' +
  'img{max-width:100%;height:auto}' +
  'table{border-collapse:collapse;margin:0 0 1em;max-width:100%}' +
  'td,th{border:1px solid #c8ccd2;padding:.25em .5em;vertical-align:top}' +
  'a{color:#0b57d0}';

/**
 * The frame's sandbox: no allow-scripts and no allow-same-origin, ever (docs/protocol.md "Threat
 * table"), so even HTML that got past DOMPurify runs nothing and reaches nothing of ours. Outward
 * links may open a new tab of their own (popups that escape the sandbox, opened noopener by the
 * sanitiser's rel).
 */
export const WORD_FRAME_SANDBOX = 'allow-popups allow-popups-to-escape-sandbox';

/** The frame's whole document around HTML that DOMPurify already cleaned. */
export function frameDocument(cleanHtml: string): string {
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="referrer" content="no-referrer">' +
    `<style>${FRAME_CSS}</style></head><body><main>${cleanHtml}</main></body></html>`
  );
}
