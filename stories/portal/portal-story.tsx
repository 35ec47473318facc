/** Story plumbing for the portal: a page inside a memory data router with a scripted portal API, the toasts and confirmations. */
import { useState, type ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { PortalApiContext, type PortalApi } from '../../src/app/portal/portal-api';
import { ConfirmHost } from '../../src/ui/confirm-dialog';
import { Toaster } from '../../src/ui/toast';

/** Where a link led (stands in for pages outside the story). */
export function Landed() {
  const { pathname, search } = useLocation();
  return <p data-testid="landed">{pathname + search}</p>;
}

export interface PortalStoryProps {
  api: PortalApi;
  /** The route's path pattern, e.g. '/portal/sessions/chat/:appId'. */
  path: string;
  /** The starting URL. */
  url: string;
  page: ReactNode;
}

export function PortalStory({ api, path, url, page }: PortalStoryProps) {
  const [router] = useState(() =>
    createMemoryRouter(
      [
        { path, element: page },
        { path: '*', element: <Landed /> },
      ],
      { initialEntries: [url] },
    ),
  );
  return (
    <PortalApiContext value={api}>
      <RouterProvider router={router} />
      <Toaster />
      <ConfirmHost confirmLabel="Confirm" cancelLabel="Cancel" />
    </PortalApiContext>
  );
}
