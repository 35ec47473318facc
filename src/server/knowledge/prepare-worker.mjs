// Worker thread of prepare-pool.ts when the server runs from sources (`npm run dev`, the tests, the
// benchmarks): plain JavaScript that loads ./prepare-thread.ts through tsx's scoped import. The
// server build bundles prepare-thread.ts under this file's name instead, with no loader.
import { tsImport } from 'tsx/esm/api';

await tsImport('./prepare-thread.ts', import.meta.url);
