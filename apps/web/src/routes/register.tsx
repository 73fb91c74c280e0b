import type { FormEvent } from 'react';
import { Link, createRoute } from '@tanstack/react-router';
import { Button, Card, toast } from '@sealbox/ui';
import { rootRoute } from './root.tsx';

function RegisterPage() {
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    toast('Registration is not available yet.', 'info');
  };

  return (
    <div className="auth-page">
      <Card className="auth-card">
        <h1>Create your account</h1>
        <form className="form" onSubmit={onSubmit} noValidate>
          <label className="field">
            <span>Username</span>
            <input name="username" autoComplete="username" />
          </label>
          <label className="field">
            <span>Email (optional)</span>
            <input name="email" type="email" autoComplete="email" />
          </label>
          <label className="field">
            <span>Password</span>
            <input name="password" type="password" autoComplete="new-password" />
          </label>
          <label className="field">
            <span>Confirm password</span>
            <input name="confirmPassword" type="password" autoComplete="new-password" />
          </label>
          <Button type="submit" size="lg">
            Register
          </Button>
        </form>
        <p className="auth-card__footer">
          <Link to="/login">Back to login</Link>
        </p>
      </Card>
    </div>
  );
}

export const registerRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/register',
  component: RegisterPage,
});
