import { CircleAlert, TriangleAlert, X } from 'lucide-react';
import { useMemo, useRef } from 'react';
import { sameStructure } from '../editor/same-structure';
import { createFlowGraph, type FlowGraph, type NodeConfig, type NodeIssue } from '../../plugin-sdk';
import type { EditorNodePlugin } from '../../plugin-sdk/view';
import { describeObject } from '../../kit/schema/fields';
import { Button } from '../../ui/button';
import { cn } from '../../ui/cn';
import { EmptyState } from '../../ui/empty-state';
import { Input } from '../../ui/input';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../ui/tabs';
import { useFlowStore } from '../react/use-flow-store';
import { useFlowStoreApi } from '../react/use-flow-store-api';
import { selectNode } from '../store/selectors';
import { NodeWidgetContext, type NodeWidgetEnv } from '../widgets/context';
import { listVariables, portOptions } from '../widgets/variables';
import { useInspectorT } from '../widgets/labels';
import { ConfigForm } from './config-form';
import { registerPluginTexts } from '../editor/plugin-texts';
import { changedKeys, issueText, issuesByField, splitRunSettings } from './logic';
import { NodeIconTile } from './node-icon';
import { NodeOutputs } from './node-outputs';
import { runsAlone } from './single-run';
import { SingleRunSection } from './single-run-section';
import s from './inspector.module.css';

export { sameStructure };

export interface NodeInspectorProps {
  nodeId: string;
  /** Shows a close button (the editor deselects the node). */
  onClose?: () => void;
  className?: string;
}

/**
 * The inspector of one node: its icon, editable title, the kind's description, its checklist
 * issues, and its settings: the plugin's own panel when it has one, otherwise a form rendered from
 * the config schema with the flow-aware widgets. Fields of the shared "errors and retries" group
 * sit in a second tab. Every edit goes through the editor's store, so undo and redo cover it.
 * Reads the store of the surrounding `FlowStoreProvider`; the registry is the store's.
 * @example <FlowStoreProvider store={store}><NodeInspector nodeId={selected} onClose={() => store.setSelection({ nodes: [] })} /></FlowStoreProvider>
 */
export function NodeInspector({ nodeId, onClose, className }: NodeInspectorProps) {
  const store = useFlowStoreApi();
  const registry = store.registry;
  const { t, i18n } = useInspectorT();
  // Before any plugin text is read below; idempotent (once per registry).
  useMemo(() => registerPluginTexts(i18n, registry), [i18n, registry]);
  const node = useFlowStore(selectNode(nodeId));
  const readOnly = useFlowStore((st) => st.readOnly);
  const doc = useFlowStore((st) => st.document, sameStructure);
  const graph = useMemo<FlowGraph>(() => createFlowGraph(doc), [doc]);
  const plugin = node ? (registry.get(node.kind) as EditorNodePlugin | undefined) : undefined;
  const normalized = useMemo(() => (node ? registry.normalizeNode(node) : undefined), [node, registry]);
  const issues = useMemo<NodeIssue[]>(() => (normalized ? registry.validateNode(normalized, graph) : []), [normalized, graph, registry]);
  const variables = useMemo(() => listVariables(registry, graph, nodeId), [registry, graph, nodeId]);
  const env = useMemo<NodeWidgetEnv | null>(
    () =>
      normalized
        ? {
            registry,
            graph,
            node: normalized,
            ns: plugin?.ns ?? '',
            variables,
            issues,
            readOnly,
            typeOf: (sel) => registry.typeOf(sel, graph, normalized.id),
          }
        : null,
    [registry, graph, normalized, plugin, variables, issues, readOnly],
  );
  const outputs = useMemo(() => (normalized ? portOptions(normalized.id, registry.outputsOf(normalized, graph), plugin?.ns) : []), [normalized, registry, graph, plugin]);
  const fields = useMemo(() => (plugin ? describeObject(plugin.configSchema) : []), [plugin]);
  const tabs = useMemo(() => splitRunSettings(fields), [fields]);
  const config = normalized?.config ?? {};
  const configRef = useRef(config);
  configRef.current = config;

  if (!node || !env || !normalized) return <EmptyState size="sm" className={className} title={t('noNode')} />;

  const kindTitle = plugin ? t(`${plugin.ns}:${plugin.titleKey}`) : node.kind;
  // Issues of hidden fields (a tool's function id) have no place in the form: they go on top.
  const general = issuesByField(issues, plugin?.view?.Panel ? [] : fields.filter((f) => f.widget !== 'hidden').map((f) => f.name)).general;

  const onPanelChange = (next: NodeConfig) => {
    const keys = changedKeys(configRef.current, next);
    if (keys.length === 1) store.updateConfig(node.id, keys, next[keys[0]]);
    else if (keys.length) store.batch(() => keys.forEach((k) => store.updateConfig(node.id, [k], next[k], { merge: false })));
  };

  const form = (include?: readonly string[]) =>
    plugin && <ConfigForm key={node.id} plugin={plugin} nodeId={node.id} config={config} issues={issues} readOnly={readOnly} include={include} />;
  const Panel = plugin?.view?.Panel;

  return (
    <aside className={cn(s.inspector, className)} aria-label={t('label', { title: node.title || kindTitle })} data-slot="node-inspector" data-kind={node.kind}>
      <header className={s.header}>
        <NodeIconTile icon={plugin?.icon} color={plugin?.color} />
        <Input
          className={s.title}
          value={node.title}
          placeholder={kindTitle}
          aria-label={t('title')}
          readOnly={readOnly}
          maxLength={200}
          onChange={(e) => store.setTitle(node.id, e.target.value)}
          onBlur={() => store.sealHistory()}
        />
        {onClose && (
          <Button variant="ghost" size="sm" iconOnly aria-label={t('close')} onClick={onClose}>
            <X aria-hidden="true" />
          </Button>
        )}
      </header>
      <p className={s.description}>{plugin ? t(`${plugin.ns}:${plugin.descriptionKey}`) : t('unknownKind', { kind: node.kind })}</p>
      {general.length > 0 && (
        <ul className={s.issues} aria-label={t('issues', { count: general.length })}>
          {general.map((i, n) => (
            <li key={n} data-severity={i.severity}>
              {i.severity === 'error' ? <CircleAlert aria-hidden="true" /> : <TriangleAlert aria-hidden="true" />}
              {issueText(i18n, i)}
            </li>
          ))}
        </ul>
      )}
      <NodeWidgetContext.Provider value={env}>
        <div className={s.body}>
          {!plugin ? null : Panel ? (
            <Panel node={normalized} config={config} graph={graph} readOnly={readOnly} issues={issues} onChange={onPanelChange} />
          ) : tabs.run.length && tabs.settings.length ? (
            <Tabs defaultValue="settings">
              <TabsList>
                <TabsTrigger value="settings">{t('tabs.settings')}</TabsTrigger>
                <TabsTrigger value="run">
                  {t('tabs.run')}
                  {issues.some((i) => tabs.run.includes(String(i.path?.[0]))) && <CircleAlert aria-label={t('tabs.hasIssues')} className={s.tabMark} />}
                </TabsTrigger>
              </TabsList>
              <TabsContent value="settings">{form(tabs.settings)}</TabsContent>
              <TabsContent value="run">{form(tabs.run)}</TabsContent>
            </Tabs>
          ) : (
            form()
          )}
        </div>
      </NodeWidgetContext.Provider>
      <NodeOutputs options={outputs} title={t('outputs')} />
      {runsAlone(registry, normalized.kind) && <SingleRunSection key={normalized.id} registry={registry} node={normalized} variables={variables} typeOf={env.typeOf} />}
    </aside>
  );
}
