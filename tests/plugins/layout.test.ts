import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { NODE_WIDGETS } from '../../src/plugin-sdk';

/**
 * The plugin layout's rules, read from the sources: where a node kind's pieces live and what core
 * code may import. A rule broken here is a structure problem, not a behaviour one, so it is checked
 * on the text of the files.
 */

const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

/** Source files under `dir` (posix paths from the root). */
function sources(dir: string): string[] {
  return fs
    .readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(ts|tsx|mjs)$/.test(f) && !f.includes('node_modules'))
    .map((f) => path.posix.join(dir, f.split(path.sep).join('/')));
}

describe('widget names', () => {
  it('are written once, in the SDK constant: manifests and the canvas name them through it', () => {
    const names = new Set(Object.values(NODE_WIDGETS));
    const spelled: string[] = [];
    for (const file of [...sources('plugins'), ...sources('src/canvas')]) {
      if (file.endsWith('.test.ts') || file.endsWith('.test.tsx')) continue;
      for (const m of read(file).matchAll(/(?:widget:\s*|^\s*)'([a-z][a-z-]*)'\s*[:,}]?/gm)) {
        if (names.has(m[1] as never) && /widget:|^\s*'[a-z-]+'\s*:/.test(m[0])) spelled.push(`${file}: '${m[1]}'`);
      }
    }
    expect(spelled).toEqual([]);
  });
});

/** The files a source file imports from this repository (relative specifiers resolved, posix). */
function importsOf(file: string): string[] {
  const out: string[] = [];
  for (const m of read(file).matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g)) {
    out.push(path.posix.normalize(path.posix.join(path.posix.dirname(file), m[1])));
  }
  return out;
}

const isTest = (file: string) => /\.(test|stories)\.tsx?$/.test(file) || file.includes('.fixture.');

describe('core code', () => {
  it('never imports a plugin folder: only the one built-in list, plugins/builtins.ts', () => {
    const wrong: string[] = [];
    for (const file of sources('src').filter((f) => !isTest(f))) {
      for (const target of importsOf(file)) if (target.startsWith('plugins/') && target !== 'plugins/builtins') wrong.push(`${file} -> ${target}`);
    }
    expect(wrong).toEqual([]);
  });

  it('finds built-in folders by their file names only, and the editor never takes an executor', () => {
    const globs = sources('src').flatMap((f) => [...read(f).matchAll(/import\.meta\.glob[^(]*\(\s*'([^']+)'/g)].map((m) => `${f}: ${m[1]}`));
    expect(globs.filter((g) => g.includes('plugins/'))).toEqual(['src/canvas/builtin-plugins.ts: ../../plugins/*/manifest.ts', 'src/canvas/builtin-plugins.ts: ../../plugins/*/view.tsx']);
  });
});

describe('the knowledge query', () => {
  it('is defined once (schemas/knowledge.ts): no other definition of it, and one spelling of the modes', () => {
    const defs: string[] = [];
    for (const file of [...sources('src'), ...sources('plugins'), ...sources('schemas')].filter((f) => !isTest(f))) {
      const text = read(file);
      if (/(interface|type|const)\s+(KnowledgeQuery|RetrieveRequest)\b[^;]*[{=]\s*(z\.object|\{)/.test(text)) defs.push(file);
      if (/enum\(\[[^\]]*'full-text'|'full-text'\s*\|/.test(text)) defs.push(`${file}: 'full-text'`);
    }
    expect(defs).toEqual(['schemas/knowledge.ts']);
  });
});

describe('a built-in kind', () => {
  it('is a folder of the one list with its manifest, its story, and its executor unless it never runs', async () => {
    const { BUILTIN_KINDS } = await import('../../plugins/builtins');
    const missing: string[] = [];
    for (const kind of BUILTIN_KINDS) {
      for (const file of ['manifest.ts', `${kind}.stories.tsx`]) if (!fs.existsSync(path.join(root, 'plugins', kind, file))) missing.push(`plugins/${kind}/${file}`);
    }
    expect(missing).toEqual([]);
    const folders = fs.readdirSync(path.join(root, 'plugins'), { withFileTypes: true }).filter((d) => d.isDirectory() && fs.existsSync(path.join(root, 'plugins', d.name, 'manifest.ts')));
    expect(folders.map((d) => d.name).sort()).toEqual([...BUILTIN_KINDS].sort());
  });

  it('keeps its widgets in its folder: the canvas renders only the widgets every kind may use', async () => {
    const own = sources('plugins').filter((f) => f.endsWith('/manifest.ts')).flatMap((f) => [...read(f).matchAll(/export const \w+_WIDGETS = \{([\s\S]*?)\} as const;/g)].flatMap((m) => [...m[1].matchAll(/^\s+\w+: '([a-z-]+)',$/gm)].map((n) => n[1])));
    expect(own).toHaveLength(15);
    const { nodeWidgets } = await import('../../src/canvas/widgets');
    expect(own.filter((name) => name in nodeWidgets)).toEqual([]);
    // Plus 'code': the kit's own code editor, which the canvas replaces by one with "Open large".
    expect(Object.keys(nodeWidgets).sort()).toEqual([...Object.values(NODE_WIDGETS), 'code'].sort());
  });
});
