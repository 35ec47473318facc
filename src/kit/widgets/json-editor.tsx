import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { InvalidJson, parseJson } from '../schema-form/resolver';
import { CodeEditor, type CodeEditorProps } from './code-editor';
import s from './widgets.module.css';

export interface JsonEditorProps extends Omit<CodeEditorProps, 'language'> {
  /** Called with the parse outcome after each change (`undefined` detail when valid). */
  onValidate?: (error: string | undefined) => void;
}

/**
 * The code editor in JSON mode, with the parse error shown under it. Holds text.
 * @example <JsonEditor value={text} onChange={setText} />
 */
export function JsonEditor({ value, onChange, onValidate, ...rest }: JsonEditorProps) {
  const { t } = useTranslation('kit');
  const parsed = parseJson(value ?? '');
  const error = parsed.ok ? undefined : parsed.detail;
  const last = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (last.current !== error) onValidate?.(error);
    last.current = error;
  }, [error, onValidate]);
  return (
    <div className={s.stack} data-slot="json-editor">
      <CodeEditor {...rest} value={value} onChange={onChange} language="json" invalid={rest.invalid || !!error} />
      {error && (
        <p className={s.inlineError} role="alert" data-slot="json-error">
          {t('validation.invalidJson', { detail: error })}
        </p>
      )}
    </div>
  );
}

const stringify = (v: unknown) => (v === undefined ? '' : JSON.stringify(v, null, 2));

export interface JsonValueEditorProps extends Omit<CodeEditorProps, 'language' | 'value' | 'onChange'> {
  /** Any JSON value (or an {@link InvalidJson} while the text does not parse). */
  value: unknown;
  /** The parsed value; an {@link InvalidJson} while the text does not parse; `undefined` when blank. */
  onChange: (value: unknown) => void;
}

/**
 * A JSON value edited as text: keeps the text while it does not parse and reports an
 * {@link InvalidJson} (which SchemaForm's resolver turns into the parse error message).
 */
export function JsonValueEditor({ value, onChange, ...rest }: JsonValueEditorProps) {
  const [text, setText] = useState(() => (value instanceof InvalidJson ? value.text : stringify(value)));
  const own = useRef<unknown>(value);
  useEffect(() => {
    // A value set from outside (reset, load) replaces the text; our own echoes do not.
    if (value !== own.current && !(value instanceof InvalidJson)) setText(stringify(value));
    own.current = value;
  }, [value]);
  return (
    <CodeEditor
      {...rest}
      language="json"
     
      value={text}
      onChange={(next) => {
        setText(next);
        const r = parseJson(next);
        const out = r.ok ? r.value : new InvalidJson(next, r.detail);
        own.current = out;
        onChange(out);
      }}
    />
  );
}
