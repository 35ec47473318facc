/**
 * Which text namespaces load when. Texts load per namespace and language on demand (see ./index.ts):
 * the app starts with {@link STARTUP_NAMESPACES} (what the shell, sign-in, error and status screens
 * use), the portal's routes add {@link PORTAL_NAMESPACES}, the console's layout and home (/operation)
 * add {@link CONSOLE_HOME_NAMESPACES}, and every other console page (and /personal) loads every
 * namespace before it shows. Kept apart from index.ts so that tools (the
 * portal size benchmark) can read the lists without i18next.
 */
export const STARTUP_NAMESPACES = ['common', 'errors', 'shell', 'auth', 'pages'] as const;

/** What every portal page uses on top of the start-up texts (the kit's: search boxes, forms, tables). */
export const PORTAL_NAMESPACES = ['portal', 'kit'] as const;

/**
 * What the console's layout and home (/operation) use on top of the start-up texts; the console's
 * other pages load every namespace (console-routes.tsx), so the home's first load carries only these (issue 28).
 */
export const CONSOLE_HOME_NAMESPACES = ['workspace'] as const;
