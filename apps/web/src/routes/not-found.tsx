import { useNavigate } from '@tanstack/react-router';
import { Button } from '@sealbox/ui';
import './status-page.css';

/** docs/product.md "Screens": any unknown path. */
export function NotFoundPage() {
  const navigate = useNavigate();
  return (
    <section className="status-page" aria-labelledby="not-found-title">
      <p className="status-page__code" aria-hidden="true">
        404
      </p>
      <h1 id="not-found-title" className="status-page__title">
        Oops! The page you're looking for doesn't exist.
      </h1>
      <Button size="lg" onClick={() => void navigate({ to: '/home' })}>
        Go Back
      </Button>
    </section>
  );
}
