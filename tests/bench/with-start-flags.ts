/**
 * Imported first by a bench whose server runs in its own process (./portal.ts): when node was started
 * without `npm start`'s flags, the bench runs again under them and this process exits with its status.
 */
import { ensureStartFlags } from './start-flags';

ensureStartFlags(process.argv[1]!);
