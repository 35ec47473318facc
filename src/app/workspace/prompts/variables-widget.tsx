import { useEffect, useRef, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { PromptVariable, TemplateType } from '../../../../schemas/prompt';
import type { WidgetRenderProps } from '../../../kit/schema-form';
import { Input } from '../../../ui/input';
import { Spinner } from '../../../ui/spinner';
import s from './prompts-page.module.css';

/** Spec 9: wait this long after the last key before asking the server to parse. */
export const PARSE_DEBOUNCE_MS = 500;

type Parse = (type: TemplateType, content: string) => Promise<string[]>;

/** Keeps the description and default of names that remain, in the parsed order. */
export function mergeVariables(names: readonly string[], current: readonly PromptVariable[]): PromptVariable[] {
  return names.map((name) => current.find((v) => v.name === name) ?? { name, description: '', default: '' });
}

const EXAMPLE: Record<TemplateType, string> = { 'f-string': '{name}', jinja2: '{{ name }}' };

interface TemplateIssueLike {
  line?: number;
  column?: number;
  message?: string;
}

function issueOf(e: unknown): TemplateIssueLike | null {
  const data = (e as { data?: unknown })?.data;
  if (Array.isArray(data) && data[0] && typeof data[0] === 'object') return data[0] as TemplateIssueLike;
  return null;
}

/**
 * The `variables` widget of the prompt form: the variables parsed by the server from the content
 * (both template types, through parse-variables) as rows whose description and default are
 * editable. Give the parser as `widgetProps.variables.parse`.
 */
export function VariablesWidget(p: WidgetRenderProps) {
  const { t } = useTranslation('prompt');
  const parse = p.extra.parse as Parse;
  const [content, type] = useWatch({ control: p.form.control, name: ['content', 'template_type'] }) as [string | undefined, TemplateType | undefined];
  const value = (Array.isArray(p.value) ? p.value : []) as PromptVariable[];
  const latest = useRef(value);
  latest.current = value;
  const onChange = useRef(p.onChange);
  onChange.current = p.onChange;
  const [parsing, setParsing] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const tt = type ?? 'f-string';
    if (!content?.trim()) {
      setError(null);
      if (latest.current.length) onChange.current([]);
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      setParsing(true);
      parse(tt, content).then(
        (names) => {
          if (!live) return;
          setError(null);
          const next = mergeVariables(names, latest.current);
          if (JSON.stringify(next) !== JSON.stringify(latest.current)) onChange.current(next);
        },
        (e: unknown) => {
          if (!live) return;
          const i = issueOf(e);
          setError(i ? t('editor.parseError', { line: i.line ?? 0, column: i.column ?? 0, message: i.message ?? '' }) : e instanceof Error ? e.message : String(e));
        },
      ).finally(() => live && setParsing(false));
    }, PARSE_DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [content, type, parse, t]);

  const edit = (i: number, key: 'description' | 'default', v: string) => p.onChange(value.map((x, j) => (j === i ? { ...x, [key]: v } : x)));

  return (
    <div className={s.variables} data-testid="prompt-variables" aria-busy={parsing || undefined}>
      <p className={s.variablesHint}>
        {t('editor.syntaxHint', { example: EXAMPLE[type ?? 'f-string'], interpolation: { escapeValue: false } })}
        {parsing && <Spinner size={12} label={t('editor.parsing')} />}
      </p>
      {error && (
        <p className={s.variablesError} role="alert">
          {error}
        </p>
      )}
      {value.length === 0 ? (
        <p className={s.variablesEmpty}>{t('editor.noVariables')}</p>
      ) : (
        <table className={s.variablesTable}>
          <thead>
            <tr>
              <th>{t('variable.name')}</th>
              <th>{t('variable.description')}</th>
              <th>{t('variable.default')}</th>
            </tr>
          </thead>
          <tbody>
            {value.map((v, i) => (
              <tr key={v.name} data-variable={v.name}>
                <td>
                  <code>{v.name}</code>
                </td>
                <td>
                  <Input size="sm" value={v.description ?? ''} maxLength={200} disabled={p.disabled} readOnly={p.readOnly} aria-label={`${t('variable.description')} ${v.name}`} onChange={(e) => edit(i, 'description', e.target.value)} />
                </td>
                <td>
                  <Input size="sm" value={v.default ?? ''} maxLength={5000} disabled={p.disabled} readOnly={p.readOnly} aria-label={`${t('variable.default')} ${v.name}`} onChange={(e) => edit(i, 'default', e.target.value)} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
