import { Elysia } from 'elysia';

/**
 * Script in this origin could read every key the user holds, so the policy allows only our own
 * files: no inline script or style, no eval (WebAssembly only, for argon2id), no plugins, and
 * frames only for blob: previews. Word previews run in a sandboxed frame on top of this.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  // The one <style> of the Word preview's sandboxed srcdoc frame (renderers/word/frame.ts FRAME_CSS).
  "style-src 'self' 'sha256-fOnGPqpTMVCBvNZh72SlsHkBWOndfIJxSagbq/5/a18='",
  "img-src 'self' blob: data:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "worker-src 'self'",
  'frame-src blob:',
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'autoplay=()',
  'camera=()',
  'display-capture=()',
  'geolocation=()',
  'gyroscope=()',
  'magnetometer=()',
  'microphone=()',
  'payment=()',
  'usb=()',
  'fullscreen=(self)',
].join(', ');

export function securityHeaders(options: { hsts: boolean }) {
  const headers: Record<string, string> = {
    'content-security-policy': CONTENT_SECURITY_POLICY,
    'x-content-type-options': 'nosniff',
    // Share links carry the key in the fragment; no-referrer keeps even the path to ourselves.
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'permissions-policy': PERMISSIONS_POLICY,
  };
  if (options.hsts) headers['strict-transport-security'] = 'max-age=63072000; includeSubDomains';
  // Set on request, not after the handler, so errors and early answers carry them too.
  return new Elysia({ name: 'security-headers' }).onRequest(({ set, request }) => {
    Object.assign(set.headers, headers);
    if (new URL(request.url).pathname.startsWith('/api/')) set.headers['cache-control'] = 'no-store';
  });
}
