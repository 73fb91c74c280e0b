import { useState, type FormEvent } from 'react';
import { Link, createRoute } from '@tanstack/react-router';
import { Button, Card, toast } from '@sealbox/ui';
import { safeRedirectPath } from '../features/auth/redirect.ts';
import { rootRoute } from './root.tsx';

export interface LoginSearch {
  /** In-app path (with query and hash) to return to after signing in. */
  redirect?: string;
}

function LoginPage() {
  const { redirect } = loginRoute.useSearch();
  const [showPassword, setShowPassword] = useState(false);
  const [error, setError] = useState<string>();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    if (!data.get('username') || !data.get('password')) {
      setError('Username and password are required.');
      return;
    }
    setError(undefined);
    // The accounts work signs in here, then follows `redirect` (default DEFAULT_AFTER_LOGIN).
    toast('Signing in is not available yet.', 'info');
  };

  return (
    <div className="auth-page">
      <Card className="auth-card">
        <h1>Sign in</h1>
        {redirect && <p className="muted">Sign in to continue where you left off.</p>}
        <form className="form" onSubmit={onSubmit} noValidate>
          <label className="field">
            <span>Username</span>
            <input name="username" autoComplete="username" />
          </label>
          <label className="field">
            <span>Password</span>
            <input name="password" type={showPassword ? 'text' : 'password'} autoComplete="current-password" />
          </label>
          <label className="checkbox">
            <input type="checkbox" checked={showPassword} onChange={(e) => setShowPassword(e.target.checked)} />
            <span>Show password</span>
          </label>
          {error && (
            <p className="form__error" role="alert">
              {error}
            </p>
          )}
          <Button type="submit" size="lg">
            Sign in
          </Button>
        </form>
        <p className="auth-card__footer">
          No account yet? <Link to="/register">Create one</Link>
        </p>
      </Card>
    </div>
  );
}

export const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/login',
  validateSearch: (raw: Record<string, unknown>): LoginSearch => {
    const redirect = safeRedirectPath(raw.redirect);
    return redirect ? { redirect } : {};
  },
  component: LoginPage,
});
