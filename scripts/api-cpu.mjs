// `node scripts/api-cpu.mjs <file>`: the API test files by CPU, from the lines a run with
// WEFT_API_CPU=<file> wrote (tests/api/cpu-per-file.ts), with the totals.
import fs from 'node:fs';

const rows = fs
  .readFileSync(process.argv[2], 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l))
  .map((r) => ({ ...r, total: r.cpu + r.children }))
  .sort((a, b) => b.total - a.total);
const top = Number(process.argv[3] ?? rows.length);
console.log('   cpu s  (worker + children)   wall s  file');
for (const r of rows.slice(0, top)) console.log(`${r.total.toFixed(1).padStart(8)}  (${r.cpu.toFixed(1).padStart(6)} + ${r.children.toFixed(1).padStart(5)})  ${r.wall.toFixed(1).padStart(12)}  ${r.file}`);
const sum = (k) => rows.reduce((s, r) => s + r[k], 0);
console.log(`${sum('total').toFixed(1).padStart(8)}  (${sum('cpu').toFixed(1).padStart(6)} + ${sum('children').toFixed(1).padStart(5)})  ${sum('wall').toFixed(1).padStart(12)}  ${rows.length} files`);
