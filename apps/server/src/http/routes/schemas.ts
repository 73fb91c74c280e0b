import { t } from 'elysia';

/**
 * Shapes of request bodies, queries and params. Lengths here only cap sizes; the domain's
 * checks give the precise rules and the texts of docs/product.md "Messages".
 */
const base64 = (maxLength: number) => t.String({ minLength: 1, maxLength });
const Username = t.String({ minLength: 1, maxLength: 200 });

export const KdfSchema = t.Object({
  version: t.Integer(),
  argon2id: t.Object({
    iterations: t.Integer(),
    memoryKiB: t.Integer(),
    parallelism: t.Integer(),
    hashLength: t.Integer(),
  }),
  /** Version 1 only (the domain requires it there and refuses it in version 2). */
  pbkdf2: t.Optional(t.Object({ iterations: t.Integer() })),
});

export const RegisterBody = t.Object({
  username: t.String({ maxLength: 200 }),
  email: t.Union([t.String({ maxLength: 400 }), t.Null()]),
  password: base64(200),
  passwordSalt: base64(64),
  salt: base64(64),
  iv: base64(64),
  encryptedPrivateKey: base64(128 * 1024),
  publicKey: base64(2048),
  signingPublicKey: base64(2048),
  kdf: KdfSchema,
});

/** The argon2id login hash the browser derives (login, and TOTP setup and disable). */
const LoginPassword = t.String({ minLength: 1, maxLength: 200 });

export const LoginBody = t.Object({
  username: Username,
  password: LoginPassword,
  totpCode: t.Optional(t.String({ maxLength: 16 })),
});

/**
 * PUT /api/account/kdf: the account re-sealed under version-2 password keys. `currentPassword`
 * is the login password that signed in (a stolen cookie alone cannot replace it).
 */
/** An account's bundle sealed under new password keys: the login password and what opens it. */
const NewPasswordKeys = {
  password: base64(200),
  passwordSalt: base64(64),
  salt: base64(64),
  iv: base64(64),
  encryptedPrivateKey: base64(128 * 1024),
  kdf: KdfSchema,
};

export const KdfUpgradeBody = t.Object({ currentPassword: LoginPassword, ...NewPasswordKeys });

export const CurrentPasswordBody = t.Object({ currentPassword: LoginPassword });

/** The recovery phrase's copy of the bundle and its proof (docs/protocol.md "Recovery phrase"). */
const RecoveryCopy = {
  recoveryAuth: base64(64),
  recoverySealed: base64(128 * 1024),
  recoveryNonce: base64(64),
};
export const RecoveryBody = t.Object({ currentPassword: LoginPassword, ...RecoveryCopy });
export const RecoveryOpenBody = t.Object({ username: Username, recoveryAuth: base64(64) });
export const RecoveryResetBody = t.Object({ username: Username, ...RecoveryCopy, ...NewPasswordKeys });

export const CheckQuery = t.Object({
  username: t.Optional(t.String({ maxLength: 200 })),
  email: t.Optional(t.String({ maxLength: 400 })),
});

const TotpCode = t.String({ pattern: '^[0-9]{6}$' });
/** A TOTP code or a recovery code, as the login's totpCode: the domain tells them apart. */
const TotpOrRecoveryCode = t.String({ minLength: 1, maxLength: 16 });

export const TotpBody = t.Union([
  t.Object({ action: t.Literal('setup'), password: LoginPassword }),
  t.Object({ action: t.Literal('confirm'), code: TotpCode }),
  t.Object({ action: t.Literal('disable'), code: TotpOrRecoveryCode, password: LoginPassword }),
  t.Object({ action: t.Literal('recovery-codes'), password: LoginPassword }),
]);

export const EmailBody = t.Object({ email: t.Union([t.String({ maxLength: 400 }), t.Null()]) });

export const PreferencesBody = t.Object({
  gridView: t.Optional(t.Boolean()),
  sortBy: t.Optional(
    t.Union([
      t.Literal('name'),
      t.Literal('size'),
      t.Literal('created'),
      t.Literal('modified'),
      t.Literal('owner'),
      t.Literal('uploader'),
      t.Literal('extension'),
    ]),
  ),
  sortOrder: t.Optional(t.Union([t.Literal('asc'), t.Literal('desc')])),
});

export const AvatarBody = t.Object({ avatar: t.File() });

export const SearchParams = t.Object({ name: t.String({ minLength: 1, maxLength: 200 }) });

export const SearchQuery = t.Object({
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 10 })),
  offset: t.Optional(t.Integer({ minimum: 0, maximum: 1_000_000 })),
});

export const IdParams = t.Object({ id: t.String({ minLength: 1, maxLength: 128 }) });

export const AvatarParams = t.Object({ file: t.String({ minLength: 1, maxLength: 128 }) });

/** POST /api/account/delete (domain/accounts/deletion.ts). */
export const DeleteAccountBody = t.Object({
  password: LoginPassword,
  totpCode: t.Optional(t.String({ maxLength: 16 })),
  confirm: t.String({ maxLength: 64 }),
});
