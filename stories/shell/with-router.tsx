/** Story plumbing: shell pieces use router links, so each story renders inside a memory data router. */
import type { Decorator } from '@storybook/react-vite';
import { useState } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';

function InRouter({ children, path }: { children: React.ReactNode; path: string }) {
  const [router] = useState(() => createMemoryRouter([{ path: '*', element: children }], { initialEntries: [path] }));
  return <RouterProvider router={router} />;
}

/** `parameters: { route: '/operation/workspace/w1/member' }` sets the starting URL (default /operation). */
export const withRouter: Decorator = (Story, { parameters }) => (
  <InRouter path={(parameters.route as string | undefined) ?? '/operation'}>
    <Story />
  </InRouter>
);
