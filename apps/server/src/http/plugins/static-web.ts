import { Elysia } from 'elysia';
import { stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { DomainError } from '../../domain/errors.ts';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
};

/** Vite puts content-hashed files under /assets/: a new build gets new names. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

export function contentTypeOf(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * Serves the built web app. Any GET that is not /api/* and not an existing file gets index.html,
 * so client routes (/files?parentId=x, /share?linkId=y) load the app, which then routes itself.
 */
export function staticWeb(options: { root: string }) {
  const root = resolve(options.root);
  const indexPath = join(root, 'index.html');

  return new Elysia({ name: 'static-web' }).get('/*', async ({ request }) => {
    const rawPath = new URL(request.url).pathname;
    if (rawPath === '/api' || rawPath.startsWith('/api/')) throw new DomainError('NOT_FOUND', 'No such API route');
    const relative = safeRelativePath(rawPath);
    const candidate = resolve(root, relative);
    if (candidate !== root && !candidate.startsWith(root + sep)) throw new DomainError('VALIDATION', 'Invalid path');

    // Dot-files (.env, .git) are never served, whatever the build left in the folder.
    const hidden = relative.split('/').some((segment) => segment.startsWith('.'));
    if (relative !== '' && !hidden && (await isFile(candidate))) {
      const cache = rawPath.startsWith('/assets/') ? IMMUTABLE : REVALIDATE;
      return fileResponse(candidate, cache);
    }
    // A missing hashed asset is a stale page asking for an old build: answering index.html
    // would hand HTML to a <script> and, worse, let it be cached as the asset.
    if (rawPath.startsWith('/assets/')) throw new DomainError('NOT_FOUND', 'No such asset');
    if (!(await isFile(indexPath))) {
      return new Response('Sealbox web app is not built yet. Run `bun run build:web`, then reload.\n', {
        status: 503,
        headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
      });
    }
    return fileResponse(indexPath, REVALIDATE);
  });
}

function fileResponse(path: string, cacheControl: string): Response {
  return new Response(Bun.file(path), {
    headers: { 'content-type': contentTypeOf(path), 'cache-control': cacheControl },
  });
}

/** Decodes the URL path and refuses anything that could step outside the web root. */
function safeRelativePath(rawPath: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    throw new DomainError('VALIDATION', 'Invalid path');
  }
  if (decoded.includes('\0') || decoded.includes('\\')) throw new DomainError('VALIDATION', 'Invalid path');
  const segments = decoded.split('/').filter((segment) => segment !== '');
  if (segments.some((segment) => segment === '..')) {
    throw new DomainError('VALIDATION', 'Invalid path');
  }
  return segments.join('/');
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
