import { Play, Square } from 'lucide-react';
import { useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/request';
import type { FlowNode, NodeRegistry, ValueType } from '../../plugin-sdk';
import { Button } from '../../ui/button';
import { Field } from '../../ui/field';
import { Input } from '../../ui/input';
import { Textarea } from '../../ui/textarea';
import { formatElapsed, JsonBlock, RunStatusBadge } from '../debug/trace-view';
import { useVariableLabels } from '../widgets/labels';
import { findVariable, type VariableGroup } from '../widgets/variables';
import { useSingleRunApi, type SingleRunApi } from './single-run-api';
import { inputKind, jsonExample, parseInputs, singleRunInputs, singleRunMemory, type SingleRunInput, type SingleRunMemory, type SingleRunState } from './single-run';
import s from './inspector.module.css';

export interface SingleRunSectionProps {
  registry: NodeRegistry;
  /** The node as normalized by its plugin (defaults filled). */
  node: FlowNode;
  /** The variables the node may use (the inspector's listing): labels and types of its inputs. */
  variables: readonly VariableGroup[];
  typeOf(selector: readonly string[]): ValueType | undefined;
  /** Default: the page-wide memory. */
  memory?: SingleRunMemory;
}

/**
 * "Run this node" at the foot of the inspector: a field per variable the node reads (text, number,
 * true/false or JSON by its type), Run, Stop while it runs, then status, time, tokens and outputs
 * or the error with its code. The last inputs and result stay per node while the page lives.
 * Shown only with a {@link SingleRunApi} in context.
 */
export function SingleRunSection(props: SingleRunSectionProps) {
  const api = useSingleRunApi();
  if (!api) return null;
  return <SingleRun api={api} {...props} />;
}

function SingleRun({ api, registry, node, variables, typeOf, memory = singleRunMemory }: SingleRunSectionProps & { api: SingleRunApi }) {
  const { t: tr } = useTranslation(['inspector', 'debug']);
  const t = tr as unknown as (key: string, opts?: Record<string, unknown>) => string;
  const { groupTitle, typeLabel } = useVariableLabels();
  const entry = useSyncExternalStore(memory.subscribe, () => memory.get(api.scope, node.id));
  const fields = useMemo(() => singleRunInputs(registry, node, typeOf), [registry, node, typeOf]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const ctrl = useRef<AbortController | null>(null);
  const [stopping, setStopping] = useState(false);
  // Open again on what was left: remembered inputs or a result.
  const [open, setOpen] = useState(() => entry.state.status !== 'idle' || Object.values(entry.texts).some(Boolean));
  const state = entry.state;
  const running = state.status === 'running';
  const set = (state: SingleRunState) => memory.update(api.scope, node.id, { state });

  const run = async () => {
    const parsed = parseInputs(fields, entry.texts);
    if (!parsed.ok) {
      setErrors(Object.fromEntries(Object.entries(parsed.errors).map(([k, e]) => [k, t(`singleRun.${e}`, { key: k })])));
      return;
    }
    setErrors({});
    const c = new AbortController();
    ctrl.current = c;
    set({ status: 'running', startedAt: Date.now() });
    try {
      const unsaved = await api.prepare();
      if (unsaved) {
        set({ status: 'error', code: unsaved === 'conflict' ? 'CONFLICT' : 'UNSAVED', message: t(`debug:errors.${unsaved}`) });
        return;
      }
      set({ status: 'done', result: await api.run(node.id, parsed.inputs, c.signal) });
    } catch (e) {
      if (c.signal.aborted) set({ status: 'error', code: 'STOPPED', message: t('debug:errors.stopped') });
      else if (e instanceof ApiError) set({ status: 'error', code: e.code, message: e.msg || e.message });
      else set({ status: 'error', code: 'REQUEST', message: t('singleRun.requestFailed', { message: e instanceof Error ? e.message : String(e) }) });
    } finally {
      if (ctrl.current === c) ctrl.current = null;
    }
  };

  const stop = async () => {
    setStopping(true);
    try {
      const stopped = await api.stop(node.id).catch(() => false);
      // Nothing found to stop on the server: stop waiting for it here.
      if (!stopped) ctrl.current?.abort();
    } finally {
      setStopping(false);
    }
  };

  return (
    <details
      className={s.singleRun}
      open={open}
      onToggle={(e) => setOpen(e.currentTarget.open)}
      data-testid="single-run"
      data-status={state.status === 'done' ? state.result.status : state.status}
    >
      <summary>
        <Play aria-hidden="true" />
        {t('singleRun.title')}
      </summary>
      <p className={s.description}>{t('singleRun.hint')}</p>
      {fields.length === 0 ? (
        <p className={s.description}>{t('singleRun.noInputs')}</p>
      ) : (
        <div className={s.singleRunForm}>
          {fields.map((f) => (
            <InputField
              key={f.key}
              field={f}
              label={labelOf(f, variables, groupTitle)}
              typeName={f.type ? typeLabel(f.type) : undefined}
              value={entry.texts[f.key] ?? ''}
              error={errors[f.key]}
              disabled={running}
              onChange={(v) => memory.update(api.scope, node.id, { texts: { ...memory.get(api.scope, node.id).texts, [f.key]: v } })}
            />
          ))}
          <p className={s.description}>{t('singleRun.emptyOmitted')}</p>
        </div>
      )}
      <div className={s.singleRunActions}>
        {running ? (
          <Button variant="secondary" size="sm" icon={<Square />} loading={stopping} onClick={() => void stop()} data-testid="single-run-stop">
            {t('singleRun.stop')}
          </Button>
        ) : (
          <Button variant="primary" size="sm" icon={<Play />} onClick={() => void run()} data-testid="single-run-start">
            {state.status === 'idle' ? t('singleRun.run') : t('singleRun.rerun')}
          </Button>
        )}
        {running && (
          <span className={s.description} role="status">
            {t('singleRun.running')}
          </span>
        )}
      </div>
      <Result state={state} />
    </details>
  );
}

function labelOf(f: SingleRunInput, variables: readonly VariableGroup[], groupTitle: (g: VariableGroup) => string): string {
  const found = findVariable(variables, f.selector);
  if (!found) return f.key;
  const title = groupTitle(found.group);
  return title ? `${title} / ${found.option.name}` : f.key;
}

function InputField({
  field,
  label,
  typeName,
  value,
  error,
  disabled,
  onChange,
}: {
  field: SingleRunInput;
  label: string;
  typeName?: string;
  value: string;
  error?: string;
  disabled: boolean;
  onChange(v: string): void;
}) {
  const { t: tr } = useTranslation('inspector');
  const t = tr as unknown as (key: string, opts?: Record<string, unknown>) => string;
  const kind = inputKind(field.type);
  const aria = t('singleRun.input', { key: field.key });
  const heading = (
    <span className={s.singleRunLabel}>
      {label === field.key ? <code>{label}</code> : label}
      {typeName && <span className={s.outputType}>{typeName}</span>}
    </span>
  );
  return (
    <Field label={heading} error={error} data-testid={`single-run-field-${field.key}`}>
      {kind === 'text' || kind === 'json' ? (
        <Textarea
          aria-label={aria}
          rows={kind === 'json' ? 3 : 2}
          value={value}
          disabled={disabled}
          spellCheck={kind === 'text'}
          className={kind === 'json' ? s.mono : undefined}
          placeholder={kind === 'json' ? t('singleRun.jsonPlaceholder', { example: jsonExample(field.type), interpolation: { escapeValue: false } }) : t('singleRun.textPlaceholder')}
          onChange={(e) => onChange(e.target.value)}
        />
      ) : (
        <Input aria-label={aria} value={value} disabled={disabled} inputMode={kind === 'number' ? 'decimal' : undefined} placeholder={kind === 'boolean' ? 'true / false' : '0'} onChange={(e) => onChange(e.target.value)} />
      )}
    </Field>
  );
}

function Result({ state }: { state: SingleRunState }) {
  const { t: tr } = useTranslation(['inspector', 'debug']);
  const t = tr as unknown as (key: string, opts?: Record<string, unknown>) => string;
  const { t: td } = useTranslation('debug');
  if (state.status === 'idle' || state.status === 'running') return null;
  if (state.status === 'error') {
    return (
      <div className={s.singleRunResult} data-testid="single-run-result" data-status="error">
        <p className={s.singleRunError} role="alert">
          <code>{state.code}</code> {state.message}
        </p>
      </div>
    );
  }
  const r = state.result;
  const hasOutputs = Object.keys(r.outputs).length > 0;
  return (
    <div className={s.singleRunResult} data-testid="single-run-result" data-status={r.status} aria-label={t('singleRun.result')}>
      <div className={s.singleRunMeta}>
        <RunStatusBadge status={r.status} />
        <span title={t('singleRun.elapsed')} data-testid="single-run-elapsed">
          {formatElapsed(td, r.elapsedMs)}
        </span>
        <span title={t('singleRun.tokens')} data-testid="single-run-tokens">
          {t('singleRun.tokensCount', { count: r.usage.totalTokens })}
        </span>
      </div>
      {r.error && (
        <p className={s.singleRunError} role="alert" data-testid="single-run-error">
          <code>{r.error.code}</code> {r.error.message}
        </p>
      )}
      {hasOutputs ? <JsonBlock label={t('singleRun.outputs')} value={r.outputs} open testId="single-run-outputs" /> : r.status === 'succeeded' && <p className={s.description}>{t('singleRun.noOutputs')}</p>}
      {Object.keys(r.inputs).length > 0 && <JsonBlock label={t('singleRun.inputsUsed')} value={r.inputs} testId="single-run-inputs" />}
    </div>
  );
}
