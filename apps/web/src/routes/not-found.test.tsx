import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderApp } from '../test/render-app.tsx';

afterEach(cleanup);

describe('404 page', () => {
  it('renders the not-found message for an unknown path', async () => {
    renderApp('/no/such/page');
    expect(await screen.findByText("Oops! The page you're looking for doesn't exist.")).toBeTruthy();
  });

  it('Go Back navigates to /home', async () => {
    const { router } = renderApp('/no/such/page');
    fireEvent.click(await screen.findByRole('button', { name: 'Go Back' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
  });
});
