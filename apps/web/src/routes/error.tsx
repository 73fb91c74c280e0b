import { useEffect } from 'react';
import { useRouter, type ErrorComponentProps } from '@tanstack/react-router';
import { Button, toast } from '@sealbox/ui';
import './status-page.css';

/** docs/product.md "Screens": the router's default error boundary; the message also goes to a toast. */
export function ErrorPage({ error, reset }: ErrorComponentProps) {
  const router = useRouter();
  const message = error instanceof Error ? error.message : String(error);

  useEffect(() => {
    if (message) toast(message, 'error');
  }, [message]);

  const retry = () => {
    reset();
    // Re-run loaders too: the error may have come from one, not from rendering.
    void router.invalidate();
  };

  return (
    <section className="status-page" role="alert" aria-labelledby="error-title">
      <h1 id="error-title" className="status-page__title">
        Something went wrong!
      </h1>
      <p className="status-page__text">
        We apologize for the inconvenience. Please try again or contact support if the issue persists.
      </p>
      <Button size="lg" onClick={retry}>
        Try again
      </Button>
    </section>
  );
}
