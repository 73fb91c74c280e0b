import { AVATAR_MAX_BYTES } from '@sealbox/rules';
import { Elysia } from 'elysia';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openAvatar, uploadAvatar } from '../../domain/accounts/avatar.ts';
import type { AccountsDeps } from '../../domain/accounts/deps.ts';
import { PINS_REQUEST_MAX_BYTES, PINS_TOO_LARGE, readPins, writePins } from '../../domain/accounts/pins.ts';
import { toProfile, updateEmail, updatePreferences } from '../../domain/accounts/profile.ts';
import { DomainError } from '../../domain/errors.ts';
import type { SessionPlugin } from '../plugins/session.ts';
import { AvatarBody, AvatarParams, EmailBody, PreferencesBody } from './schemas.ts';

/** docs/product.md "Screens" (Navbar) and "Limits": "The default avatar is a built-in image." Ours, drawn for Sealbox. */
export const DEFAULT_AVATAR_SVG = readFileSync(join(import.meta.dir, '../assets/default-avatar.svg'));

/** Avatar URLs carry a random cache-busting query, so a browser may keep what it fetched. */
export const AVATAR_CACHE_CONTROL = 'private, max-age=3600';

/** Multipart framing around a 2 MiB image. */
const AVATAR_REQUEST_MAX_BYTES = AVATAR_MAX_BYTES + 64 * 1024;

export function profileRoutes(deps: { accounts: AccountsDeps; session: SessionPlugin }) {
  const { accounts } = deps;
  return new Elysia({ name: 'profile-routes' })
    .use(deps.session)
    .get('/api/profile', ({ user }) => toProfile(user), { session: true })
    .put('/api/profile', ({ body, user, clientIp }) => updateEmail(accounts, { userId: user.id, clientIp }, body.email), {
      body: EmailBody,
      session: true,
    })
    .put('/api/profile/preferences', ({ body, user }) => updatePreferences(accounts, user.id, body), {
      body: PreferencesBody,
      session: true,
    })
    .get('/api/profile/pins', ({ user }) => readPins(accounts, user.id), { session: true })
    .put('/api/profile/pins', ({ body, user }) => writePins(accounts, user.id, body), {
      // Tighter than the JSON body limit: refuse an announced oversize body before it is read.
      parse: ({ request }) => {
        const length = Number(request.headers.get('content-length') ?? 0);
        if (length > PINS_REQUEST_MAX_BYTES) throw new DomainError('TOO_LARGE', PINS_TOO_LARGE);
      },
      // No schema: Elysia's would drop unknown keys and convert types, and this body must be
      // exactly { sealed, nonce, version } (the domain checks every key and type itself).
      session: true,
    })
    .put(
      '/api/profile/upload',
      async ({ body, user }) => uploadAvatar(accounts, user.id, new Uint8Array(await body.avatar.arrayBuffer())),
      {
        // Refuse an announced oversize body before it is read and parsed.
        parse: ({ request }) => {
          const length = Number(request.headers.get('content-length') ?? 0);
          if (length > AVATAR_REQUEST_MAX_BYTES) throw new DomainError('TOO_LARGE', 'Avatar is larger than 2 MiB');
        },
        body: AvatarBody,
        session: true,
      },
    )
    .get(
      '/api/avatars/:file',
      async ({ params, set }) => {
        const avatar = await openAvatar(accounts, params.file);
        set.headers['cache-control'] = AVATAR_CACHE_CONTROL;
        const [body, contentType] =
          avatar.kind === 'image' ? [avatar.body, avatar.contentType] : [DEFAULT_AVATAR_SVG, 'image/svg+xml'];
        set.headers['content-type'] = contentType;
        return new Response(body, {
          headers: { 'content-type': contentType, 'cache-control': AVATAR_CACHE_CONTROL, 'x-content-type-options': 'nosniff' },
        });
      },
      { params: AvatarParams },
    );
}
