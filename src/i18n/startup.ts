/**
 * Which text namespaces load when. Texts load per namespace and language on demand (see ./index.ts):
 * the app starts with {@link STARTUP_NAMESPACES} (what the shell, sign-in, error and status screens
 * use), the portal's routes add {@link PORTAL_NAMESPACES}, and the console (/operation, /personal)
 * loads every namespace before its first page shows. Kept apart from index.ts so that tools (the
 * portal size benchmark) can read the lists without i18next.
 */
export const STARTUP_NAMESPACES = ['common', 'errors', 'shell', 'auth', 'pages'] as const;

/** What every portal page uses on top of the start-up texts (the kit's: search boxes, forms, tables). */
export const PORTAL_NAMESPACES = ['portal', 'kit'] as const;
