/**
 * The agent builder's form sections. Each edits one node of the flow document through the same
 * schema-driven form the canvas inspector uses (ConfigForm: every change one store edit, so undo,
 * redo and autosave cover it) with the same flow-aware widgets (model, tools, knowledge bases,
 * variables); the features section edits the document's `features` the same way.
 */
import type { ReactNode } from 'react';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { AppFeatures, featuresOf } from '../../../../../schemas/flow';
import { useFlowStore, useFlowStoreApi } from '../../../../canvas';
import { FEATURE_WIDGETS } from '../../../../canvas/editor/features-widgets';
import { registerPluginTexts } from '../../../../canvas/editor/plugin-texts';
import { sameStructure } from '../../../../canvas/editor/same-structure';
import { ConfigForm } from '../../../../canvas/inspector';
import { selectNode } from '../../../../canvas/store/selectors';
import { NodeWidgetContext, type NodeWidgetEnv } from '../../../../canvas/widgets/context';
import { useInspectorT } from '../../../../canvas/widgets/labels';
import { listVariables } from '../../../../canvas/widgets/variables';
import { renderBuiltinWidget, SchemaForm, type WidgetRenderProps } from '../../../../kit/schema-form';
import { createFlowGraph, type FlowGraph, type NodeIssue } from '../../../../plugin-sdk';
import type { EditorNodePlugin } from '../../../../plugin-sdk/view';
import s from './builder.module.css';

/** One titled section of the builder's form. */
export function Section({ id, title, help, actions, children }: { id: string; title: string; help?: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <section className={s.section} aria-labelledby={`builder-${id}`} data-testid={`builder-section-${id}`}>
      <header className={s.sectionHeader}>
        <h3 id={`builder-${id}`} className={s.sectionTitle}>
          {title}
        </h3>
        {actions && <div className={s.sectionActions}>{actions}</div>}
      </header>
      {help && <p className={s.sectionHelp}>{help}</p>}
      {children}
    </section>
  );
}

/**
 * Some fields of one node's config (`include`, in the schema's order), drawn as the inspector
 * draws them, with the node's checklist issues at their fields.
 */
export function NodeFields({ nodeId, include }: { nodeId: string; include: readonly string[] }) {
  const store = useFlowStoreApi();
  const registry = store.registry;
  const { i18n } = useInspectorT();
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
        ? { registry, graph, node: normalized, ns: plugin?.ns ?? '', variables, issues, readOnly, typeOf: (sel) => registry.typeOf(sel, graph, normalized.id) }
        : null,
    [registry, graph, normalized, plugin, variables, issues, readOnly],
  );
  if (!plugin || !normalized || !env) return null;
  return (
    <NodeWidgetContext.Provider value={env}>
      <ConfigForm plugin={plugin} nodeId={nodeId} config={normalized.config} issues={issues} readOnly={readOnly} include={include} />
    </NodeWidgetContext.Provider>
  );
}

/** Number boxes need no full width. */
const FEATURE_WIDGET_PROPS = { suggested_questions_random_count: { className: s.narrow } };

/**
 * The app's features (opening statement, suggested questions and how many show, follow-up
 * suggestions, file and image upload with the image detail, citations, feedback), drawn by the kit
 * from AppFeatures as the canvas's Features dialog draws them, but written as they change: each
 * change that leaves the features valid is one store edit (typing in one field merges).
 */
export function FeaturesFields() {
  const store = useFlowStoreApi();
  const readOnly = useFlowStore((st) => st.readOnly);
  const stored = useFlowStore((st) => st.document.features);
  const features = useMemo(() => featuresOf({ features: stored }), [stored]);
  const write = useCallback(
    (name: string, value: unknown) => {
      const next = AppFeatures.safeParse({ ...featuresOf(store.getState().document), [name]: value });
      // A value the schema refuses (more questions shown than written) stays in the form until fixed.
      if (!next.success) return;
      store.edit((d) => void (d.features = next.data), { mergeKey: `#features:${name}` });
    },
    [store],
  );
  const renderWidget = useCallback(
    (p: WidgetRenderProps) => {
      const q: WidgetRenderProps = {
        ...p,
        onChange: (value: unknown) => {
          p.onChange(value);
          write(p.field.name, value);
        },
        onBlur: () => {
          p.onBlur();
          store.sealHistory();
        },
      };
      return FEATURE_WIDGETS[p.field.widget]?.(q) ?? renderBuiltinWidget(q);
    },
    [store, write],
  );
  return <SchemaForm schema={AppFeatures} ns="features" values={features} renderWidget={renderWidget} widgetProps={FEATURE_WIDGET_PROPS} readOnly={readOnly} hideFooter />;
}

/** The builder's section titles (the namespace's keys). */
export const useBuilderT = () => useTranslation('builder');
