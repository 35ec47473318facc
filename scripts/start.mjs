// `npm start`: builds the client when dist/ is missing or older than the sources, then runs the
// one server process (Fastify + embedded PostgreSQL unless DATABASE_URL is set).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'dist', 'index.html');

function newest(dir) {
  let t = 0;
  if (!fs.existsSync(dir)) return t;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
    const p = path.join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : fs.statSync(p).mtimeMs);
  }
  return t;
}

const sourcesTime = Math.max(...['src', 'schemas', 'plugins', 'public'].map((d) => newest(path.join(root, d))), fs.statSync(path.join(root, 'index.html')).mtimeMs);
if (!fs.existsSync(dist) || fs.statSync(dist).mtimeMs < sourcesTime) {
  console.log('Building the client (vite build)…');
  const r = spawnSync(process.execPath, [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src', 'server', 'main.ts')], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, WEFT_CLIENT_DIR: process.env.WEFT_CLIENT_DIR || path.join(root, 'dist') },
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code) => process.exit(code ?? 0));
