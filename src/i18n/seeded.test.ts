/**
 * The seeded tenant and project space are stored in English (seed.ts) and shown in the user's language
 * (seeded.ts): every screen that shows a field that may hold one passes it through seededName or
 * seededPath. A scan of the screens' .tsx files keeps it so (a missed site showed 'Default project
 * space' in the Chinese UI: approvals, the store, dataset tasks, the portal's app cards).
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { i18n, initI18n } from './index';
import { seededName, seededPath } from './seeded';

const ROOT = path.resolve(__dirname, '..');
/** Answer fields that may hold a seeded name (a project space's, a tenant's, or an org path from the tenant's root). */
const FIELDS = new Set(['workspace_name', 'source_workspace_name', 'tenant_name', 'treeNames', 'masterOrgTreeName']);
const HELPERS = new Set(['seededName', 'seededPath']);

function tsxFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) return tsxFiles(p);
    return p.endsWith('.tsx') && !/\.(test|stories)\.tsx$/.test(p) ? [p] : [];
  });
}

/** `file:line field` for each such field read inside JSX without going through a helper. */
export function unlocalised(file: string, text: string): string[] {
  const src = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const visit = (n: ts.Node) => {
    if (ts.isPropertyAccessExpression(n) && FIELDS.has(n.name.text)) {
      // Up to the nearest JSX boundary: shown there unless a helper, a comparison or a `key` is on the way.
      let shown = false;
      for (let p: ts.Node | undefined = n.parent; p && !ts.isSourceFile(p); p = p.parent) {
        if (ts.isCallExpression(p) && HELPERS.has(p.expression.getText())) break;
        if (ts.isBinaryExpression(p) && [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken].includes(p.operatorToken.kind)) break;
        if (ts.isJsxExpression(p) || ts.isJsxAttribute(p)) {
          const attr = ts.isJsxAttribute(p) ? p : ts.isJsxAttribute(p.parent) ? p.parent : null;
          shown = attr?.name.getText() !== 'key';
          break;
        }
      }
      if (shown) found.push(`${file}:${src.getLineAndCharacterOfPosition(n.getStart()).line + 1} ${n.name.text}`);
    }
    ts.forEachChild(n, visit);
  };
  visit(src);
  return found;
}

beforeAll(async () => {
  await initI18n('zh');
});
afterAll(async () => {
  await i18n.changeLanguage('zh');
});

describe('seeded names', () => {
  it('shows a seeded name, or the seeded root of an org path, in the current language; anything else as stored', async () => {
    expect(seededName('Default project space')).toBe('默认项目空间');
    expect(seededPath('Default tenant/R&D/Web')).toBe('默认租户/R&D/Web');
    expect(seededPath('Default tenant')).toBe('默认租户');
    expect(seededPath('Acme/Default tenant')).toBe('Acme/Default tenant');
    await i18n.changeLanguage('en');
    expect(seededPath('Default tenant/R&D')).toBe('Default tenant/R&D');
    expect(seededName('My space')).toBe('My space');
  });

  it('finds a field shown without the helper (the check works)', () => {
    const hits = unlocalised('x.tsx', 'const A = () => <p key={a.workspace_name} title={seededName(a.tenant_name)}>{a.workspace_name}{t("k", { s: b.source_workspace_name })}{x.treeNames === y ? 1 : 2}</p>;');
    expect(hits).toEqual(['x.tsx:1 workspace_name', 'x.tsx:1 source_workspace_name']);
  });

  it('every screen shows those fields through seededName / seededPath', () => {
    const hits = tsxFiles(ROOT).flatMap((f) => unlocalised(path.relative(ROOT, f), fs.readFileSync(f, 'utf8')));
    expect(hits).toEqual([]);
  }, 60_000);
});
