import { useState } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { Toaster } from '../../src/ui/toast';

/** A workspace screen inside a memory data router (as in the app), with the toasts. */
export function ResourceStory({ routes, start }: { routes: RouteObject[]; start: string }) {
  const [router] = useState(() => createMemoryRouter(routes, { initialEntries: [start] }));
  return (
    <>
      <RouterProvider router={router} />
      <Toaster />
    </>
  );
}

