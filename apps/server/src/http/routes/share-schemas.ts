import { t } from 'elysia';
import { MAX_LINK_EXPIRY_SECONDS, MAX_LINK_PASSWORD_CHARS, SHARED_MAX_LIMIT } from '../../domain/files/index.ts';

/**
 * Shapes of the sharing calls (docs/protocol.md "Sharing"). Lengths here only cap sizes and
 * unknown keys are refused; the files domain checks ids, base64 lengths and links precisely.
 */
const text = (maxLength: number) => t.String({ maxLength });
const strict = { additionalProperties: false } as const;
const Password = text(MAX_LINK_PASSWORD_CHARS);
/** Seconds from now; 0 is never. */
const Expires = t.Integer({ minimum: 0, maximum: MAX_LINK_EXPIRY_SECONDS });

export const ShareBody = t.Union([
  t.Object(
    {
      type: t.Literal('user'),
      id: text(64),
      userId: text(64),
      encryptedKey: text(1024),
      edit: t.Boolean(),
      signature: text(256),
    },
    strict,
  ),
  t.Object(
    {
      type: t.Literal('link'),
      id: text(64),
      expires: Expires,
      password: t.Optional(t.Union([Password, t.Null()])),
      edit: t.Boolean(),
    },
    strict,
  ),
]);

export const ChangeShareBody = t.Union([
  t.Object({ type: t.Literal('user'), fileId: text(64), userId: text(64), edit: t.Boolean(), signature: text(256) }, strict),
  t.Object(
    {
      type: t.Literal('link'),
      linkId: text(64),
      edit: t.Optional(t.Boolean()),
      password: t.Optional(t.Union([Password, t.Null()])),
      expires: t.Optional(Expires),
    },
    strict,
  ),
]);

export const RevokeBody = t.Union([
  t.Object({ type: t.Literal('user'), fileId: text(64), userId: text(64) }, strict),
  t.Object({ type: t.Literal('link'), linkId: text(64) }, strict),
]);

export const SharedQuery = t.Object({
  limit: t.Optional(t.Integer({ minimum: 1, maximum: SHARED_MAX_LIMIT })),
  offset: t.Optional(t.Integer({ minimum: 0 })),
});

/** `{fileId}` or `{linkId}`: one path segment, checked by the domain. */
export const SharedParams = t.Object({ id: text(64) });

export const OpenLinkBody = t.Object({ password: Password }, strict);

/** `{userId}` of the blocks calls: one path segment, checked by the domain. */
export const BlockParams = t.Object({ userId: text(64) });
