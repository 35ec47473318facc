import { useContext } from 'react';
import { defineNodeView } from '../../src/plugin-sdk/view';
import { Switch } from '../../src/ui/switch';
import { asWidget, RowSelect, RowList, useInspectorT, useNodeWidgetEnv, useResourceList, widgetStyles as s, WorkspaceResourcesContext, type NodeWidgetProps } from '../../src/canvas/widgets/kit';
import { AGENT_WIDGETS, agentPlugin } from './manifest';

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** An agent's tools: functions of workspace tools and tools of MCP servers, each switchable. */
function ToolListWidget(p: NodeWidgetProps) {
  const { t } = useInspectorT();
  const env = useNodeWidgetEnv();
  const res = useContext(WorkspaceResourcesContext);
  const tools = useResourceList(res.tools);
  const servers = useResourceList(res.mcpServers);
  const locked = p.readOnly || p.disabled || env.readOnly;
  const rows = (Array.isArray(p.value) ? p.value : []) as Record<string, unknown>[];
  const choices = [
    ...(tools.status === 'ready' ? tools.items.flatMap((x) => x.functions.map((f) => ({ key: `tool:${x.id}:${f.id}`, type: 'tool', providerId: x.id, name: f.id, label: `${x.name} / ${f.name}` }))) : []),
    ...(servers.status === 'ready' ? servers.items.flatMap((x) => x.tools.map((f) => ({ key: `mcp:${x.id}:${f.id}`, type: 'mcp', providerId: x.id, name: f.id, label: `${x.name} / ${f.name}` }))) : []),
  ];
  const keyOf = (r: Record<string, unknown>) => `${str(r.type)}:${str(r.providerId)}:${str(r.name)}`;
  const labelOf = (r: Record<string, unknown>) => choices.find((c) => c.key === keyOf(r))?.label ?? t('resources.missing', { id: `${str(r.providerId)}/${str(r.name)}` });
  const free = choices.filter((c) => !rows.some((r) => keyOf(r) === c.key));
  const loading = tools.status === 'loading' || servers.status === 'loading';
  return (
    <div className={s.list} id={p.id} role="group" aria-label={p.field.label ? p.tk(p.field.label) : p.field.name}>
      {rows.length > 0 && (
        <RowList<Record<string, unknown>>
          value={rows}
          onChange={(v) => p.onChange(v)}
          readOnly={locked}
          addLabel=""
          max={rows.length}
          newRow={() => ({ enabled: true })}
          renderRow={(row, update) => (
            <label className={s.check}>
              <Switch size="sm" aria-label={t('resources.enable', { name: labelOf(row) })} checked={row.enabled !== false} disabled={locked} onCheckedChange={(v) => update({ enabled: v })} />
              {labelOf(row)}
            </label>
          )}
        />
      )}
      {loading ? (
        <p className={s.muted}>{t('resources.loading')}</p>
      ) : choices.length === 0 ? (
        <p className={s.muted} role="note">{t('resources.toolListEmpty')}</p>
      ) : (
        !locked &&
        free.length > 0 && (
          <RowSelect
            aria-label={t('resources.addTool')}
            value=""
            options={[{ value: '', label: t('resources.addTool') }, ...free.map((c) => ({ value: c.key, label: c.label }))]}
            onChange={(v) => {
              const c = free.find((x) => x.key === v);
              if (c) p.onChange([...rows, { type: c.type, providerId: c.providerId, name: c.name, enabled: true }]);
            }}
          />
        )
      )}
    </div>
  );
}

/** Other agent nodes of the flow this agent may hand the conversation to (ids). */
function AgentNodesWidget(p: NodeWidgetProps) {
  const { t } = useInspectorT();
  const env = useNodeWidgetEnv();
  const locked = p.readOnly || p.disabled || env.readOnly;
  const chosen = new Set(Array.isArray(p.value) ? (p.value as string[]) : []);
  const agents = env.graph.nodes.filter((n) => n.kind === env.node.kind && n.id !== env.node.id);
  const plugin = env.registry.get(env.node.kind);
  const toggle = (id: string, on: boolean) => p.onChange(on ? [...chosen, id] : [...chosen].filter((x) => x !== id));
  if (!agents.length) return <p className={s.muted} id={p.id}>{t('agents.empty')}</p>;
  return (
    <div className={s.list} id={p.id} role="group" aria-label={p.field.label ? p.tk(p.field.label) : p.field.name}>
      {agents.map((n) => (
        <label key={n.id} className={s.check}>
          <input type="checkbox" checked={chosen.has(n.id)} disabled={locked} onChange={(e) => toggle(n.id, e.target.checked)} />
          {n.title || (plugin ? t(`${plugin.ns}:${plugin.titleKey}`) : n.id)}
          <span className={s.muted}>{n.id}</span>
        </label>
      ))}
    </div>
  );
}

/** The agent's own widgets: its tools, and the agents it may hand the conversation to. */
export default defineNodeView(agentPlugin, {
  widgets: { [AGENT_WIDGETS.toolList]: asWidget(ToolListWidget), [AGENT_WIDGETS.agentNodes]: asWidget(AgentNodesWidget) },
});
