import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// findBy… and waitFor give a loaded machine (two test workers on two cores) 5 s instead of 1 s.
configure({ asyncUtilTimeout: 5000 });

// jsdom has no matchMedia; Monaco (the code editor, loaded lazily by components under test) asks it
// for the colour scheme and would fail in the middle of a later file, the module graph being shared.
window.matchMedia ??= (query: string) =>
  ({ matches: false, media: query, onchange: null, addListener() {}, removeListener() {}, addEventListener() {}, removeEventListener() {}, dispatchEvent: () => false }) as MediaQueryList;

// Files share one document (isolate: false in vite.config.ts): whatever a test rendered goes after it,
// also in files that do not call cleanup themselves.
afterEach(() => {
  cleanup();
  document.body.innerHTML = '';
});
