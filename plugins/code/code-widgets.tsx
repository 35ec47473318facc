import { CodeEditor } from '../../src/kit/widgets/code-editor';
import { SelectInput } from '../../src/kit/widgets/select-input';
import { ariaOf } from '../../src/kit/widgets/types';
import { useNodeWidgetEnv, type NodeWidgetProps } from '../../src/canvas/widgets/kit';
import { LargeEditor } from '../../src/canvas/widgets/large-editor';
import { CODE_LANGUAGES, DEFAULT_CODE_OF, type CodeLanguage } from './manifest';

type SetField = (name: string, value: unknown) => void;
const isLanguage = (v: unknown): v is CodeLanguage => (CODE_LANGUAGES as readonly unknown[]).includes(v);
const languageOf = (config: unknown): CodeLanguage => {
  const l = (config as { language?: unknown } | undefined)?.language;
  return isLanguage(l) ? l : 'javascript';
};

/** Monaco's id for each language (its Python highlighting ships with the editor: nothing extra to load). */
const MONACO_LANGUAGE: Record<CodeLanguage, string> = { javascript: 'javascript', python3: 'python' };

/**
 * The language select. Switching it swaps the code for the new language's template when the code is
 * still the old language's template (or empty), so a new node shows a `main` of the right shape;
 * written code is left as it is (the checklist then asks for the right `main`).
 */
export function CodeLanguageWidget(p: NodeWidgetProps) {
  const env = useNodeWidgetEnv();
  const config = (p.extra.config ?? {}) as { code?: unknown };
  const setField = p.extra.setField as SetField | undefined;
  const current = languageOf(p.extra.config);
  return (
    <SelectInput
      {...ariaOf(p)}
      value={current}
      options={(p.field.options ?? []).map((o) => ({ value: o.value, label: p.tk(o.label) }))}
      onChange={(next) => {
        if (!isLanguage(next) || next === current) return;
        const code = typeof config.code === 'string' ? config.code : '';
        p.onChange(next);
        if (setField && (!code.trim() || code === DEFAULT_CODE_OF[current])) setField('code', DEFAULT_CODE_OF[next]);
      }}
      onBlur={p.onBlur}
      disabled={p.disabled}
      readOnly={p.readOnly || env.readOnly}
      invalid={p.invalid}
    />
  );
}

/** The code, highlighted as the node's language (Python indents by four spaces, as its template does). */
export function CodeEditorWidget(p: NodeWidgetProps) {
  const language = languageOf(p.extra.config);
  const editor = (large?: number) => (
    // A new editor per language: its indentation (2 or 4 spaces) is set when it is created.
    <CodeEditor
      key={language}
      {...ariaOf(p)}
      value={typeof p.value === 'string' ? p.value : ''}
      onChange={p.onChange}
      onBlur={p.onBlur}
      language={MONACO_LANGUAGE[language]}
      options={{ tabSize: language === 'python3' ? 4 : 2, detectIndentation: false }}
      disabled={p.disabled}
      readOnly={p.readOnly}
      invalid={p.invalid}
      {...(large ? { height: large, maxHeight: large, resizable: false } : {})}
    />
  );
  return (
    <>
      {editor()}
      <LargeEditor label={p.field.label ? p.tk(p.field.label) : p.field.name}>{(h) => editor(h)}</LargeEditor>
    </>
  );
}
