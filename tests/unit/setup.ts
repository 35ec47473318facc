import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// Files share one document (isolate: false in vite.config.ts): whatever a test rendered goes after it,
// also in files that do not call cleanup themselves.
afterEach(() => {
  cleanup();
  document.body.innerHTML = '';
});
