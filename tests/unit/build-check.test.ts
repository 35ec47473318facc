import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLIENT_RECORD, SERVER_RECORD, staleReason } from '../../scripts/build-check.mjs';

// `npm start` builds a part (client into dist/, server into dist-server/) only when this says why.

let root: string;
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

/** A project folder with two sources and a server build made from them at `builtAt`. */
function project(builtAt: number) {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'weft-build-check-'));
  fs.mkdirSync(path.join(root, 'src'));
  fs.mkdirSync(path.join(root, 'dist-server'));
  for (const f of ['src/a.ts', 'src/b.ts', 'dist-server/main.mjs']) fs.writeFileSync(path.join(root, f), 'x');
  const old = new Date(builtAt - 60_000);
  for (const f of ['src/a.ts', 'src/b.ts']) fs.utimesSync(path.join(root, f), old, old);
  fs.writeFileSync(path.join(root, SERVER_RECORD), JSON.stringify({ builtAt, inputs: ['src/a.ts', 'src/b.ts'] }));
}

describe('staleReason', () => {
  it('skips a build that is up to date', () => {
    project(Date.now());
    expect(staleReason(root, 'server')).toBeNull();
  });

  it('builds again when a source changed, is gone, or the output or record is missing', () => {
    const builtAt = Date.now() - 10_000;
    project(builtAt);
    fs.utimesSync(path.join(root, 'src/b.ts'), new Date(), new Date());
    expect(staleReason(root, 'server')).toBe('src/b.ts changed');

    fs.rmSync(path.join(root, 'src/b.ts'));
    expect(staleReason(root, 'server')).toBe('src/b.ts is gone');

    fs.rmSync(path.join(root, 'dist-server/main.mjs'));
    expect(staleReason(root, 'server')).toBe(`${path.join('dist-server', 'main.mjs')} is missing`);

    expect(staleReason(root, 'client')).toBe('not built yet');
    fs.mkdirSync(path.dirname(path.join(root, CLIENT_RECORD)), { recursive: true });
    fs.writeFileSync(path.join(root, CLIENT_RECORD), '{');
    expect(staleReason(root, 'client')).toBe('not built yet');
  });
});
