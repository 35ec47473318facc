/**
 * What the route tables share (router.tsx, the root's and the portal's; console-routes.tsx, the console's):
 * lazily loaded pages and redirecting index routes.
 */
import type { ComponentType } from 'react';
import { redirect, type RouteObject } from 'react-router';
import { lazyWithReload } from './guards';

export type PageModule = { default: ComponentType };

/** A route `lazy` that loads a page module (default export) and reloads the page if the chunk is gone. */
export const page = (load: () => Promise<PageModule>) => lazyWithReload(async () => ({ Component: (await load()).default }));

/** An index route that sends to a child path. */
export const indexTo = (to: string): RouteObject => ({ index: true, loader: () => redirect(to), element: null });
