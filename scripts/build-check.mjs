// Whether the client build (dist/) and the server build (dist-server/) are up to date with their
// sources, without building anything: `npm start` builds only what this finds stale. Each build
// writes the list of source files it was made from (the client: dist/.vite/weft-client.json, written
// by scripts/vite-client-build.mjs; the server: dist-server/build.json, by scripts/build-server.mjs)
// and the time it started; a part is stale when its record is missing, or one of its files is gone
// or was changed since. A file a build did not use can only matter once a used file imports it, and
// that file's time then changes; so the check stats a thousand-odd files instead of walking the tree.
import fs from 'node:fs';
import path from 'node:path';

export const CLIENT_RECORD = path.join('dist', '.vite', 'weft-client.json');
export const SERVER_RECORD = path.join('dist-server', 'build.json');

/** The output files a part must have besides its record. */
const OUTPUTS = { client: [path.join('dist', 'index.html')], server: [path.join('dist-server', 'main.mjs')] };

/** The newest modification time under `p` (a file, or a folder's files); -1 when it does not exist. */
function newestTime(p) {
  let st;
  try {
    st = fs.statSync(p);
  } catch {
    return -1;
  }
  if (!st.isDirectory()) return st.mtimeMs;
  let t = st.mtimeMs;
  for (const e of fs.readdirSync(p)) t = Math.max(t, newestTime(path.join(p, e)));
  return t;
}

/**
 * Why a part must be built again, or null when it is up to date.
 * @param {string} root the project folder
 * @param {'client' | 'server'} part
 * @returns {string | null}
 */
export function staleReason(root, part) {
  const recordFile = path.join(root, part === 'client' ? CLIENT_RECORD : SERVER_RECORD);
  let record;
  try {
    record = JSON.parse(fs.readFileSync(recordFile, 'utf8'));
  } catch {
    return 'not built yet';
  }
  for (const out of OUTPUTS[part]) if (!fs.existsSync(path.join(root, out))) return `${out} is missing`;
  if (typeof record.builtAt !== 'number' || !Array.isArray(record.inputs)) return 'its build record is unreadable';
  for (const input of record.inputs) {
    const t = newestTime(path.join(root, input));
    if (t < 0) return `${input} is gone`;
    if (t > record.builtAt) return `${input} changed`;
  }
  return null;
}
