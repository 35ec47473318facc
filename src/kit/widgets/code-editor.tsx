import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type * as MonacoNs from 'monaco-editor';
import { cn } from '../../ui/cn';
import { Spinner } from '../../ui/spinner';
import type { Monaco } from './monaco-loader';
import { ariaOf, isInvalid, type WidgetValueProps } from './types';
import s from './code-editor.module.css';

/** Spec 9 code editor constants. */
export const CODE_EDITOR_DEFAULTS = {
  height: 150,
  minHeight: 100,
  maxHeight: 800,
  language: 'javascript',
  theme: 'vs-dark',
  fontSize: 16,
  minimap: true,
} as const;

/**
 * Languages of prose, not code (prompts, templates, plain text): their lines wrap and there is no
 * minimap (issue 28) — a minimap of sentences says nothing and a long sentence must not scroll away.
 * Code keeps spec 9's minimap and long lines.
 */
export const PROSE_LANGUAGES: ReadonlySet<string> = new Set(['prompt', 'plaintext', 'markdown', 'jinja2', 'template']);

let loading: Promise<Monaco> | null = null;

/** Loads Monaco once (a separate chunk with its workers). */
export function loadMonaco(): Promise<Monaco> {
  loading ??= import('./monaco-loader').then((m) => m.monaco);
  loading.catch(() => (loading = null));
  return loading;
}

export type MonacoEditor = MonacoNs.editor.IStandaloneCodeEditor;

export interface CodeEditorProps extends WidgetValueProps<string> {
  /** Monaco language id. Default 'javascript'. */
  language?: string;
  /** Controlled height in px; otherwise it starts at `defaultHeight` and the handle resizes it. */
  height?: number;
  /** Default 150 (spec 9). */
  defaultHeight?: number;
  /** Default 100. */
  minHeight?: number;
  /** Default 800. */
  maxHeight?: number;
  onHeightChange?: (height: number) => void;
  /** Show the drag handle. Default true. */
  resizable?: boolean;
  /** 'vs-dark' (default, spec 9), 'vs' or 'hc-black'. */
  theme?: string;
  /** Default 16 (spec 9). */
  fontSize?: number;
  /** Default true (spec 9); false for a prose language ({@link PROSE_LANGUAGES}). */
  minimap?: boolean;
  lineNumbers?: 'on' | 'off';
  /** Default 'off'; 'on' for a prose language ({@link PROSE_LANGUAGES}). */
  wordWrap?: 'on' | 'off';
  /** More Monaco options. */
  options?: MonacoNs.editor.IStandaloneEditorConstructionOptions;
  /** Runs once the editor exists (markers, actions, focus). */
  onMount?: (editor: MonacoEditor, monaco: Monaco) => void;
  placeholder?: string;
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/**
 * The code editor of spec 9 on Monaco: dark theme, font 16, minimap, JavaScript by default, height
 * 150 px resizable from 100 to 800 px by the handle (mouse or arrow keys). Monaco loads lazily;
 * until then (and if it cannot load) the code shows in a plain text area.
 * @example <CodeEditor value={code} onChange={setCode} language="python" />
 */
export function CodeEditor({
  value,
  onChange,
  onBlur,
  language = CODE_EDITOR_DEFAULTS.language,
  height: controlledHeight,
  defaultHeight = CODE_EDITOR_DEFAULTS.height,
  minHeight = CODE_EDITOR_DEFAULTS.minHeight,
  maxHeight = CODE_EDITOR_DEFAULTS.maxHeight,
  onHeightChange,
  resizable = true,
  theme = CODE_EDITOR_DEFAULTS.theme,
  fontSize = CODE_EDITOR_DEFAULTS.fontSize,
  minimap = !PROSE_LANGUAGES.has(language) && CODE_EDITOR_DEFAULTS.minimap,
  lineNumbers = 'on',
  wordWrap = PROSE_LANGUAGES.has(language) ? 'on' : 'off',
  options,
  onMount,
  placeholder,
  disabled,
  readOnly,
  className,
  ...rest
}: CodeEditorProps) {
  const { t } = useTranslation('kit');
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<MonacoEditor | null>(null);
  const applying = useRef(false);
  // Texts this editor sent up that the parent may still echo back (React renders lag behind fast
  // typing); an echo must not replace newer text in the editor.
  const emitted = useRef<string[]>([]);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  const [ownHeight, setOwnHeight] = useState(clamp(defaultHeight, minHeight, maxHeight));
  const height = clamp(controlledHeight ?? ownHeight, minHeight, maxHeight);
  const latest = useRef({ onChange, onBlur, onMount });
  latest.current = { onChange, onBlur, onMount };
  const locked = !!(disabled || readOnly);

  // Create once; later prop changes are applied by the effects below.
  useEffect(() => {
    let cancelled = false;
    let created: MonacoEditor | null = null;
    loadMonaco().then(
      (monaco) => {
        if (cancelled || !host.current) return;
        created = monaco.editor.create(host.current, {
          value: value ?? '',
          language,
          theme,
          fontSize,
          minimap: { enabled: minimap },
          lineNumbers,
          wordWrap,
          readOnly: locked,
          automaticLayout: true,
          scrollBeyondLastLine: false,
          tabSize: 2,
          fixedOverflowWidgets: true,
          ariaLabel: rest['aria-label'] ?? t('code.editor'),
          placeholder,
          ...options,
        });
        editor.current = created;
        created.onDidChangeModelContent(() => {
          if (applying.current) return;
          const text = created!.getValue();
          emitted.current.push(text);
          if (emitted.current.length > 100) emitted.current.shift();
          latest.current.onChange(text);
        });
        created.onDidBlurEditorText(() => latest.current.onBlur?.());
        setState('ready');
        latest.current.onMount?.(created, monaco);
      },
      () => !cancelled && setState('failed'),
    );
    return () => {
      cancelled = true;
      // The editor first, then its model if still alive: disposing the model while attached made the
      // editor detach and dispose it again inside the model's own dispose event, and Monaco's emitter
      // then threw (an unhandled error seen in a story run).
      const model = created?.getModel();
      created?.dispose();
      if (model && !model.isDisposed()) model.dispose();
      editor.current = null;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Outside value changes (reset, load) replace the text as one undoable edit.
  useEffect(() => {
    const ed = editor.current;
    const model = ed?.getModel();
    if (!ed || !model) return;
    const echo = emitted.current.lastIndexOf(value ?? '');
    if (echo >= 0) {
      emitted.current.splice(0, echo + 1);
      return;
    }
    if ((value ?? '') === model.getValue()) return;
    applying.current = true;
    try {
      ed.pushUndoStop();
      model.pushEditOperations([], [{ range: model.getFullModelRange(), text: value ?? '' }], () => null);
      ed.pushUndoStop();
    } finally {
      applying.current = false;
    }
  }, [value, state]);

  useEffect(() => {
    const ed = editor.current;
    if (!ed) return;
    ed.updateOptions({ readOnly: locked, fontSize, minimap: { enabled: minimap }, lineNumbers, wordWrap, theme });
    const model = ed.getModel();
    if (model) void loadMonaco().then((m) => m.editor.setModelLanguage(model, language));
  }, [locked, fontSize, minimap, lineNumbers, wordWrap, theme, language, state]);

  const setHeight = (h: number) => {
    const next = clamp(Math.round(h), minHeight, maxHeight);
    if (controlledHeight === undefined) setOwnHeight(next);
    onHeightChange?.(next);
  };

  const drag = useRef<{ y: number; h: number } | null>(null);
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { y: e.clientY, h: height };
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (drag.current) setHeight(drag.current.h + e.clientY - drag.current.y);
  };
  const onPointerUp = () => (drag.current = null);
  const onHandleKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.shiftKey ? 50 : 10;
    if (e.key === 'ArrowDown') setHeight(height + step);
    else if (e.key === 'ArrowUp') setHeight(height - step);
    else if (e.key === 'Home') setHeight(minHeight);
    else if (e.key === 'End') setHeight(maxHeight);
    else return;
    e.preventDefault();
  };

  const aria = ariaOf(rest);
  return (
    <div
      data-slot="code-editor"
      data-state={state}
      data-invalid={isInvalid(rest) || undefined}
      data-disabled={disabled || undefined}
      data-theme-dark={theme !== 'vs' || undefined}
      className={cn(s.root, className)}
      id={aria.id}
      aria-describedby={aria['aria-describedby']}
      role="group"
      aria-label={aria['aria-label'] ?? t('code.editor')}
    >
      <div className={s.frame} style={{ height }}>
        <div ref={host} className={s.host} hidden={state === 'failed'} />
        {state === 'loading' && (
          <div className={s.loading}>
            <pre className={s.preview}>{value}</pre>
            <span className={s.loadingBadge}>
              <Spinner size={12} label="" /> {t('code.loading')}
            </span>
          </div>
        )}
        {state === 'failed' && (
          <textarea
            className={s.fallback}
            value={value ?? ''}
            readOnly={locked}
            spellCheck={false}
            aria-label={aria['aria-label'] ?? t('code.editor')}
            aria-invalid={aria['aria-invalid']}
            onChange={(e) => onChange(e.target.value)}
            onBlur={onBlur}
          />
        )}
      </div>
      {state === 'failed' && <p className={s.note}>{t('code.failed')}</p>}
      {resizable && (
        <div
          className={s.handle}
          role="separator"
          aria-orientation="horizontal"
          aria-label={t('code.resize')}
          aria-valuemin={minHeight}
          aria-valuemax={maxHeight}
          aria-valuenow={height}
          tabIndex={0}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerUp}
          onKeyDown={onHandleKey}
        />
      )}
    </div>
  );
}
