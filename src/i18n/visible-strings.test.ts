/**
 * Every string a user sees goes through i18next (issue 28): a scan of the screens' .tsx files for JSX
 * text and for string literals given to the props users read (title, placeholder, aria-label, label,
 * alt, description), also as a branch of `a ? 'x' : 'y'` or a fallback `a ?? 'x'`, and for the English
 * defaults of such props in a component's parameters (`closeLabel = 'Close'`: every dialog whose caller
 * forgot the prop said "Close" in the Chinese UI). The keys of the two locales are compared in i18n.test.ts.
 * The same parse checks that every shown field that may hold a seeded name (the tenant's, the default
 * project space's: stored in English by seed.ts) goes through seededName / seededPath (src/i18n/seeded.ts):
 * a missed site showed 'Default project space' in the Chinese UI (approvals, the store, dataset tasks…).
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '..');
const PROPS = new Set(['title', 'placeholder', 'aria-label', 'label', 'alt', 'description']);
/** Props users read, by name: the above and any `…Label` / `…Text` / `…Title` (closeLabel, emptyText). */
const isVisibleProp = (name: string) => PROPS.has(name) || /^[a-z]\w*(Label|Text|Title)$/.test(name);
/** Words of a language: two Latin letters in a row, or a Chinese character. */
const WORDS = /[A-Za-z]{2,}|[\u4e00-\u9fff]/;

/**
 * Literals that are the same in every language (sample addresses, technical names), by
 * `file:prop=value`; anything else must be t(...).
 */
const ALLOWED = new Set([
  'app/screens/personal/profile-form.tsx:placeholder=https://',
  'app/workspace/knowledge/knowledge-unit-add-page.tsx:placeholder=https://',
  'app/system/security/network-policy-page.tsx:placeholder=127.0.0.1:11434\n10.20.0.0/16\ndb.corp.local:1521',
  'app/system/security/network-policy-page.tsx:placeholder=/opt/mcp/bin/files-server',
  'app/workspace/tools/create-tool-dialog.tsx:label=JSON',
  'app/screens/app/api-tab/api-docs-section.tsx:text=curl',
  'app/screens/app/api-tab/api-docs-section.tsx:text=JavaScript',
  'app/workspace/tools/function-page.tsx:placeholder=https://api.example.com/items/{id}',
  // A JSON boolean's input hint: the same words in every language.
  'canvas/inspector/single-run-section.tsx:placeholder=true / false',
]);

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

/** The visible literals of one .tsx source: `file:line text=…` or `file:prop=value`. */
export function visibleLiterals(file: string, text: string | ts.SourceFile): { where: string; key: string }[] {
  const src = typeof text === 'string' ? parse(file, text) : text;
  const found: { where: string; key: string }[] = [];
  const line = (n: ts.Node) => src.getLineAndCharacterOfPosition(n.getStart()).line + 1;
  /** The worded literals an expression can give: itself, a branch of `?:`, the fallback of `??` / `||`. */
  const literals = (e: ts.Node | undefined): string[] => {
    if (!e) return [];
    if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return WORDS.test(e.text) ? [e.text] : [];
    if (ts.isParenthesizedExpression(e)) return literals(e.expression);
    if (ts.isConditionalExpression(e)) return [...literals(e.whenTrue), ...literals(e.whenFalse)];
    const or = ts.isBinaryExpression(e) && [ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.BarBarToken].includes(e.operatorToken.kind);
    return or ? literals(e.right) : [];
  };
  const visit = (n: ts.Node) => {
    if (ts.isJsxText(n)) {
      const value = n.getText().trim();
      if (WORDS.test(value)) found.push({ where: `${file}:${line(n)}`, key: `${file}:text=${value}` });
    } else if (ts.isJsxAttribute(n) && isVisibleProp(n.name.getText()) && n.initializer) {
      const init = n.initializer;
      for (const lit of literals(ts.isJsxExpression(init) ? init.expression : init)) {
        found.push({ where: `${file}:${line(n)}`, key: `${file}:${n.name.getText()}=${lit}` });
      }
    } else if (ts.isBindingElement(n) && n.initializer && isVisibleProp((n.propertyName ?? n.name).getText())) {
      // A component's default for a visible prop: shown whenever a caller leaves the prop out.
      for (const lit of literals(n.initializer)) found.push({ where: `${file}:${line(n)}`, key: `${file}:${(n.propertyName ?? n.name).getText()}=${lit}` });
    }
    ts.forEachChild(n, visit);
  };
  visit(src);
  return found;
}

const parse = (file: string, text: string) => ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);

/** `file:line field` for each such field read inside JSX without going through a helper. */
export function unlocalised(file: string, src: ts.SourceFile): string[] {
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

describe('visible strings', () => {
  it('finds a literal that bypasses i18n (the check works)', () => {
    const hits = visibleLiterals('x.tsx', 'const A = () => <div title="Delete it" aria-label={t("x")}>Save 保存 {n}</div>;');
    expect(hits.map((h) => h.key)).toEqual(['x.tsx:title=Delete it', 'x.tsx:text=Save 保存']);
    const more = visibleLiterals(
      'y.tsx',
      'function D({ closeLabel = "Close", size = "md", label: name = t("k") }) { return <b aria-label={open ? "Hide" : t("show")} emptyText={x ?? "None"} className="wide" />; }',
    );
    expect(more.map((h) => h.key)).toEqual(['y.tsx:closeLabel=Close', 'y.tsx:aria-label=Hide', 'y.tsx:emptyText=None']);
  });

  it('finds a seeded-name field shown without seededName / seededPath (the check works)', () => {
    const src = parse('x.tsx', 'const A = () => <p key={a.workspace_name} title={seededName(a.tenant_name)}>{a.workspace_name}{t("k", { s: b.source_workspace_name })}{x.treeNames === y ? 1 : 2}</p>;');
    expect(unlocalised('x.tsx', src)).toEqual(['x.tsx:1 workspace_name', 'x.tsx:1 source_workspace_name']);
  });

  it('has none in the screens, apart from the allowed technical literals; seeded names go through their helpers', () => {
    const sources = tsxFiles(ROOT).map((f) => parse(path.relative(ROOT, f), fs.readFileSync(f, 'utf8')));
    const hits = sources.flatMap((src) => visibleLiterals(src.fileName, src));
    expect(hits.filter((h) => !ALLOWED.has(h.key)).map((h) => `${h.where} ${h.key}`)).toEqual([]);
    expect(sources.flatMap((src) => unlocalised(src.fileName, src))).toEqual([]);
    // Parses every screen's source (~1 s on a quiet machine): the default 5 s is short on a busy one.
  }, 60_000);
});
