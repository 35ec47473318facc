// Worker thread of frames-pool.ts when the server runs from sources (`npm run dev`, the tests, the
// benchmarks): plain JavaScript that loads ./frames-thread.ts through tsx's scoped import. The
// server build bundles frames-thread.ts under this file's name instead, with no loader.
import { tsImport } from 'tsx/esm/api';

await tsImport('./frames-thread.ts', import.meta.url);
