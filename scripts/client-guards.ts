/**
 * Writes src/api/guard-schemas.ts: the JSON Schemas of the answers the client checks with guards
 * instead of zod (src/api/guard.ts, issue 28). Run after changing a schema in src/api/guard-sources.ts:
 *   npx tsx scripts/client-guards.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import { renderGuardSchemas } from '../src/api/guard-sources';

const file = path.resolve(import.meta.dirname, '..', 'src/api/guard-schemas.ts');
fs.writeFileSync(file, renderGuardSchemas());
console.log(`wrote ${path.relative(process.cwd(), file)}`);
