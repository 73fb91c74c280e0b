import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { RouterProvider, createMemoryHistory, createRootRoute, createRouter } from '@tanstack/react-router';
import { createAppRouter } from '../router.tsx';
import { ErrorPage } from './error.tsx';

afterEach(cleanup);

/** A page that throws until the test lets it recover. */
let fail = true;
const Flaky = () => {
  if (fail) throw new Error('boom');
  return <p>recovered</p>;
};

describe('error boundary', () => {
  it('is the app router’s default error component', () => {
    expect(createAppRouter().options.defaultErrorComponent).toBe(ErrorPage);
  });

  it('shows the product text and recovers on Try again', async () => {
    // React and the router log the caught error; expected here.
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    fail = true;
    const router = createRouter({
      routeTree: createRootRoute({ component: Flaky }),
      history: createMemoryHistory({ initialEntries: ['/'] }),
      defaultErrorComponent: ErrorPage,
    });
    render(<RouterProvider router={router} />);

    expect(await screen.findByText('Something went wrong!')).toBeTruthy();
    expect(
      screen.getByText('We apologize for the inconvenience. Please try again or contact support if the issue persists.'),
    ).toBeTruthy();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('recovered')).toBeTruthy();
  });
});
