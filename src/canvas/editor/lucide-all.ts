/**
 * Every lucide icon (and its aliases), for plugin icons outside the editor's static map. Only ever
 * imported dynamically (`node-icon.tsx`), so the whole set is one chunk fetched when first needed.
 */
export * from 'lucide-react';
