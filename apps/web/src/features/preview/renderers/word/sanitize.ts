import DOMPurify from 'dompurify';

/** Links a reader may follow out of the document: the web and mail. Anything else loses its href. */
const OUTWARD = /^(?:https?:|mailto:)/i;

let purifier: ReturnType<typeof DOMPurify> | null = null;

/** An instance of our own, so the hook below changes no other use of DOMPurify. */
function instance() {
  if (purifier) return purifier;
  const made = DOMPurify(window);
  made.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName !== 'A') return;
    const href = node.getAttribute('href') ?? '';
    // Outward links open in a new tab, cut off from us; in-document links (#...) stay put.
    if (OUTWARD.test(href)) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    } else if (!href.startsWith('#')) {
      node.removeAttribute('href');
    }
  });
  purifier = made;
  return made;
}

/**
 * The HTML mammoth made from a .docx, cleaned with DOMPurify before it reaches the frame
 * (docs/protocol.md "Threat table"): no script, no event handler, no javascript: or other scheme
 * but the web and mail, no forms, no styles (the frame's CSP would refuse them anyway), images only
 * as data: they came in.
 */
export function sanitizeWordHtml(html: string): string {
  const purify = instance();
  // Where DOMPurify cannot work it hands back its input untouched: refuse instead.
  if (!purify.isSupported) throw new Error('DOMPurify is not supported here');
  return purify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'option', 'link', 'meta', 'base'],
    FORBID_ATTR: ['style', 'srcset', 'formaction', 'action', 'ping'],
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|#)/i,
    ALLOW_UNKNOWN_PROTOCOLS: false,
  });
}
