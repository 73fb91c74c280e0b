import { TOTP_PROMPT_TEXT } from '@sealbox/rules';
import { Elysia } from 'elysia';
import type { AccountsDeps } from '../../domain/accounts/deps.ts';
import { upgradeKdf } from '../../domain/accounts/kdf-upgrade.ts';
import { changePassword, sealedAccount } from '../../domain/accounts/password-change.ts';
import { openRecovery, recoveryStatus, resetWithRecovery, setRecovery } from '../../domain/accounts/recovery.ts';
import { login } from '../../domain/accounts/login.ts';
import { register } from '../../domain/accounts/registration.ts';
import { endSessionByToken, SESSION_LIFETIME_MS, TOTP_PENDING_LIFETIME_MS } from '../../domain/accounts/sessions.ts';
import { totpStatus } from '../../domain/accounts/recovery-codes.ts';
import { changeTotp } from '../../domain/accounts/totp.ts';
import { isAvailable } from '../../domain/accounts/users.ts';
import { DomainError } from '../../domain/errors.ts';
import { clearedSessionCookie, sessionCookie, type CookieSettings } from '../cookies.ts';
import type { SessionPlugin } from '../plugins/session.ts';
import {
  CheckQuery,
  CurrentPasswordBody,
  KdfUpgradeBody,
  LoginBody,
  RecoveryBody,
  RecoveryOpenBody,
  RecoveryResetBody,
  RegisterBody,
  TotpBody,
} from './schemas.ts';

export interface AccountRoutesDeps {
  accounts: AccountsDeps;
  session: SessionPlugin;
  cookies: CookieSettings;
}

/** Registration, availability, login, logout and the second factor (docs/protocol.md "Accounts"). */
export function accountRoutes(deps: AccountRoutesDeps) {
  const { accounts, cookies } = deps;
  return new Elysia({ name: 'account-routes' })
    .use(deps.session)
    .get('/api/check', ({ query, clientIp }) => isAvailable(accounts, query, clientIp), { query: CheckQuery })
    .post(
      '/api/register',
      async ({ body, clientIp, set }) => {
        const created = await register(accounts, body, clientIp);
        set.status = 201;
        return created;
      },
      { body: RegisterBody },
    )
    .post(
      '/api/login',
      async ({ body, clientIp, request, sessionToken, set }) => {
        const result = await login(accounts, {
          username: body.username,
          password: body.password,
          totpCode: body.totpCode,
          clientIp,
          userAgent: request.headers.get('user-agent'),
          previousToken: sessionToken,
        });
        if (result.kind === 'totp-required') {
          set.headers['set-cookie'] = sessionCookie(result.issued.token, TOTP_PENDING_LIFETIME_MS, cookies);
          throw new DomainError('TOTP_REQUIRED', TOTP_PROMPT_TEXT);
        }
        set.headers['set-cookie'] = sessionCookie(result.issued.token, SESSION_LIFETIME_MS, cookies);
        return result.answer;
      },
      { body: LoginBody },
    )
    .post('/api/logout', async ({ sessionToken, set }) => {
      await endSessionByToken(accounts, sessionToken);
      set.headers['set-cookie'] = clearedSessionCookie(cookies);
      set.status = 204;
    })
    .get('/api/totp', ({ user }) => totpStatus(accounts, user.id), { session: true })
    .put('/api/totp', ({ body, user, clientIp }) => changeTotp(accounts, { user, clientIp }, body), {
      body: TotpBody,
      session: true,
    })
    .put('/api/account/kdf', ({ body, user, clientIp }) => upgradeKdf(accounts, { user, clientIp }, body), {
      body: KdfUpgradeBody,
      session: true,
    })
    .post(
      '/api/account/sealed',
      ({ body, user, clientIp }) => sealedAccount(accounts, { user, clientIp }, body.currentPassword),
      { body: CurrentPasswordBody, session: true },
    )
    .get('/api/account/recovery', ({ user }) => recoveryStatus(accounts, user.id), { session: true })
    .put('/api/account/recovery', ({ body, user, clientIp }) => setRecovery(accounts, { user, clientIp }, body), {
      body: RecoveryBody,
      session: true,
    })
    .post('/api/recovery/open', ({ body, clientIp }) => openRecovery(accounts, body, clientIp), { body: RecoveryOpenBody })
    .post(
      '/api/recovery/reset',
      async ({ body, clientIp, set }) => {
        await resetWithRecovery(accounts, body, clientIp);
        set.status = 204;
      },
      { body: RecoveryResetBody },
    )
    .put(
      '/api/account/password',
      ({ body, user, session, clientIp }) => changePassword(accounts, { user, sessionId: session.id, clientIp }, body),
      { body: KdfUpgradeBody, session: true },
    );
}
