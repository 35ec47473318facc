import { useContext, useEffect, useState } from 'react';
import { useNodeWidgetEnv, WorkspaceResourcesContext, type McpServerOption, type ResourceOption, type ToolFunctionOption, type ToolOption } from './context';
import type { NodeWidgetProps } from './list-widgets';
import { RowSelect } from './rows';
import { useInspectorT } from './labels';
import { paramsFor } from './tool-params';
import s from './widgets.module.css';

type Source<T> = { list(opts: { signal: AbortSignal }): Promise<readonly T[]> } | undefined;
export type ResourceState<T> = { status: 'loading' } | { status: 'error' } | { status: 'ready'; items: readonly T[] };

/** Loads a workspace resource list once per source (aborted on unmount). An absent source is an empty list. */
export function useResourceList<T>(source: Source<T>): ResourceState<T> {
  const [state, setState] = useState<ResourceState<T>>(source ? { status: 'loading' } : { status: 'ready', items: [] });
  useEffect(() => {
    if (!source) {
      setState({ status: 'ready', items: [] });
      return;
    }
    const ctl = new AbortController();
    setState({ status: 'loading' });
    source.list({ signal: ctl.signal }).then(
      (items) => !ctl.signal.aborted && setState({ status: 'ready', items }),
      () => !ctl.signal.aborted && setState({ status: 'error' }),
    );
    return () => ctl.abort();
  }, [source]);
  return state;
}

/** Loading, failure and empty lines; null when there are items to show. */
function StateLine({ state, emptyKey }: { state: ResourceState<unknown>; emptyKey: string }) {
  const { t } = useInspectorT();
  if (state.status === 'loading') return <p className={s.muted}>{t('resources.loading')}</p>;
  if (state.status === 'error') return <p className={s.muted} role="alert">{t('resources.failed')}</p>;
  if (!state.items.length) return <p className={s.muted} role="note">{t(emptyKey)}</p>;
  return null;
}

type SetField = (name: string, value: unknown) => void;
const setFieldOf = (p: NodeWidgetProps): SetField | undefined => p.extra.setField as SetField | undefined;
const configOf = (p: NodeWidgetProps) => (p.extra.config ?? {}) as Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** Knowledge base ids of the workspace (several). */
export function KnowledgeBasesWidget(p: NodeWidgetProps) {
  const env = useNodeWidgetEnv();
  const state = useResourceList(useContext(WorkspaceResourcesContext).knowledgeBases);
  const chosen = new Set(Array.isArray(p.value) ? (p.value as string[]) : []);
  const locked = p.readOnly || p.disabled || env.readOnly;
  const label = p.field.label ? p.tk(p.field.label) : p.field.name;
  const line = <StateLine state={state} emptyKey="resources.kbEmpty" />;
  const items = state.status === 'ready' ? state.items : [];
  const missing = [...chosen].filter((id) => state.status === 'ready' && !items.some((k) => k.id === id));
  return (
    <div className={s.list} id={p.id} role="group" aria-label={label}>
      {line}
      {items.map((kb) => (
        <label key={kb.id} className={s.check}>
          <input
            type="checkbox"
            checked={chosen.has(kb.id)}
            disabled={locked}
            onChange={(e) => p.onChange(e.target.checked ? [...chosen, kb.id] : [...chosen].filter((x) => x !== kb.id))}
          />
          {kb.name}
          {kb.description && <span className={s.muted}>{kb.description}</span>}
        </label>
      ))}
      {missing.map((id) => (
        <MissingRow key={id} id={id} locked={locked} onRemove={() => p.onChange([...chosen].filter((x) => x !== id))} />
      ))}
    </div>
  );
}

function MissingRow({ id, locked, onRemove }: { id: string; locked: boolean; onRemove(): void }) {
  const { t } = useInspectorT();
  return (
    <label className={s.check} data-missing="true">
      <input type="checkbox" checked disabled={locked} onChange={onRemove} />
      <span className={s.muted}>{t('resources.missing', { id })}</span>
    </label>
  );
}

/**
 * A workspace resource and one of its parts in two selects: a tool and its function (`kind` tool)
 * or an MCP server and its tool (`kind` mcp). The field holds the first; `second` names the config
 * field of the part, and `paramsField` the one the part's parameters fill.
 */
export function PairPicker({ p, kind, second, paramsField }: { p: NodeWidgetProps; kind: 'tool' | 'mcp'; second: string; paramsField: string }) {
  const { t } = useInspectorT();
  const env = useNodeWidgetEnv();
  const res = useContext(WorkspaceResourcesContext);
  const state = useResourceList<ToolOption | McpServerOption>(kind === 'tool' ? res.tools : res.mcpServers);
  const locked = p.readOnly || p.disabled || env.readOnly;
  const id = str(p.value);
  const sub = str(configOf(p)[second]);
  const items = state.status === 'ready' ? state.items : [];
  const parent = items.find((x) => x.id === id);
  const children: readonly ToolFunctionOption[] = parent ? ('functions' in parent ? parent.functions : parent.tools) : [];
  const chosen = children.find((c) => c.id === sub);
  const setField = setFieldOf(p);
  const line = <StateLine state={state} emptyKey={kind === 'tool' ? 'resources.toolEmpty' : 'resources.mcpEmpty'} />;
  if (state.status !== 'ready' || !items.length) return <div id={p.id}>{line}</div>;
  const withMissing = (list: readonly ResourceOption[], v: string) =>
    v && !list.some((x) => x.id === v) ? [{ value: v, label: t('resources.missing', { id: v }) }, ...list.map((x) => ({ value: x.id, label: x.name }))] : list.map((x) => ({ value: x.id, label: x.name }));
  return (
    <div className={s.list} id={p.id}>
      <RowSelect
        aria-label={kind === 'tool' ? t('resources.tool') : t('resources.server')}
        value={id}
        options={[{ value: '', label: t('resources.choose') }, ...withMissing(items, id)]}
        disabled={locked}
        onChange={(v) => {
          p.onChange(v);
          setField?.(second, '');
        }}
      />
      {id && (
        <RowSelect
          aria-label={kind === 'tool' ? t('resources.function') : t('resources.mcpTool')}
          value={sub}
          options={[{ value: '', label: t('resources.choose') }, ...withMissing(children, sub)]}
          disabled={locked || !setField}
          onChange={(v) => {
            setField?.(second, v);
            // The chosen function's parameters become the node's params (values of same-named rows kept).
            const params = children.find((c) => c.id === v)?.parameters;
            if (params) setField?.(paramsField, paramsFor(configOf(p)[paramsField], params));
          }}
        />
      )}
      {chosen?.description && <p className={s.muted}>{chosen.description}</p>}
      {chosen?.parameters && chosen.parameters.length > 0 && (
        <ul className={s.paramHints} aria-label={t('resources.parameters')} data-testid="tool-parameters">
          {chosen.parameters.map((x) => (
            <li key={x.name} title={x.description}>
              <code>{x.name}</code>
              {x.type && <span className={s.muted}>{x.type}</span>}
              {x.required && <span className={s.required}>{t('resources.required')}</span>}
              {x.description && <span className={s.muted}>{x.description}</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
