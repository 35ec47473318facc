/**
 * Every string a user sees goes through i18next (issue 28): a scan of the screens' .tsx files for JSX
 * text and for string literals given to the props users read (title, placeholder, aria-label, label,
 * alt, description), also as a branch of `a ? 'x' : 'y'` or a fallback `a ?? 'x'`, and for the English
 * defaults of such props in a component's parameters (`closeLabel = 'Close'`: every dialog whose caller
 * forgot the prop said "Close" in the Chinese UI). The keys of the two locales are compared in i18n.test.ts.
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

function tsxFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) return tsxFiles(p);
    return p.endsWith('.tsx') && !/\.(test|stories)\.tsx$/.test(p) ? [p] : [];
  });
}

/** The visible literals of one .tsx source: `file:line text=…` or `file:prop=value`. */
export function visibleLiterals(file: string, text: string): { where: string; key: string }[] {
  const src = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
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

  it('has none in the screens, apart from the allowed technical literals', () => {
    const hits = tsxFiles(ROOT).flatMap((f) => visibleLiterals(path.relative(ROOT, f), fs.readFileSync(f, 'utf8')));
    expect(hits.filter((h) => !ALLOWED.has(h.key)).map((h) => `${h.where} ${h.key}`)).toEqual([]);
    // Parses every screen's source (~1 s on a quiet machine): the default 5 s is short on a busy one.
  }, 60_000);
});
