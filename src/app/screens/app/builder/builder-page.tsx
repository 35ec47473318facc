/**
 * The base tab of /operation/app/:appId/agent-builder: the zero-code agent builder. One page over
 * the same flow document the runtime executes (start → agent → answer): the configuration on the
 * left (the agent node's settings, the start form's variables, the app's features) drawn by the
 * same forms and widgets as the canvas inspector, the debug pane's chat on the right as the live
 * preview. Edits go through the editor's store (undo, redo) and its autosave with the canvas's
 * conflict protection. A flow that is not a zero-code agent (or was turned into a canvas flow)
 * opens the canvas instead.
 */
import { Redo2, Undo2, Workflow } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import { zeroCodeNodes, type ZeroCodeNodes } from '../../../../../schemas/agent-builder';
import type { AppDetail, AppDraft } from '../../../../../schemas/app';
import { FlowStoreProvider, useFlowStore, type AutosaveController, type FlowStore } from '../../../../canvas';
import { DebugPane } from '../../../../canvas/debug';
import { apiSingleRunApi, SingleRunApiContext } from '../../../../canvas/inspector';
import { ModelListContext, WorkspaceResourcesContext, type ModelList } from '../../../../canvas/widgets';
import { Button, ConfirmDialog } from '../../../../ui';
import type { NodeRegistry } from '../../../../plugin-sdk';
import { useAppGuardData } from '../app-guard';
import type { EditorContext } from '../editor-layout';
import { ConflictDialog, DraftLoader, openEditor, useAutosaveStatus, useFillWindow } from '../editor-session';
import { workspaceResources } from '../workspace-resources';
import { GenerateButton, ModelMissing, OptimizeButton, type AiTarget } from './builder-ai';
import { FeaturesFields, NodeFields, Section, useBuilderT } from './builder-sections';
import s from './builder.module.css';

export default function BuilderPage() {
  return (
    <DraftLoader
      render={(app, draft, setSaveStatus, registry) => {
        const nodes = zeroCodeNodes(draft.document);
        if (!nodes) return <Navigate to={`/operation/app/${encodeURIComponent(app.id)}/agent-flow/base`} replace />;
        return <BuilderWorkspace key={app.id} app={app} draft={draft} registry={registry} nodes={nodes} setSaveStatus={setSaveStatus} />;
      }}
    />
  );
}

/** The agent node's fields, by section (the agent team's hand-offs and the run settings are the canvas's). */
const AGENT_SECTIONS = {
  instructions: ['instructions'],
  model: ['model', 'maxIterations'],
  knowledge: ['knowledgeIds', 'knowledgeTopK', 'knowledgeMinScore'],
  tools: ['tools'],
  memory: ['memoryEnabled', 'memoryWindowEnabled', 'memoryWindow'],
  vision: ['visionEnabled', 'visionFiles', 'visionDetail'],
} as const;

function BuilderWorkspace({ app, draft, registry, nodes, setSaveStatus }: { app: AppDetail; draft: AppDraft; registry: NodeRegistry; nodes: ZeroCodeNodes; setSaveStatus: EditorContext['setSaveStatus'] }) {
  const guard = useAppGuardData();
  const defaultModel = useRef(guard?.defaultModel);
  defaultModel.current = guard?.defaultModel;
  const [{ store, autosave, layout }] = useState(() => openEditor(app, draft, registry, () => defaultModel.current));
  useAutosaveStatus(autosave, layout, setSaveStatus);
  const guardModels = guard?.models;
  const models = useMemo<ModelList>(() => ({ models: guardModels ?? [], complete: Array.isArray(guardModels) }), [guardModels]);
  const { t } = useBuilderT();
  const { t: te } = useTranslation('editor');
  const builtinTools = te('page.builtinTools');
  const resources = useMemo(() => workspaceResources(app.workspace_id, { builtinTools }), [app.workspace_id, builtinTools]);
  const singleRun = useMemo(() => apiSingleRunApi(app.id, app.workspace_id, autosave), [app.id, app.workspace_id, autosave]);
  const pageRef = useRef<HTMLDivElement>(null);
  const height = useFillWindow(pageRef);
  // The AI helpers need the tenant's default LLM among the usable models.
  const d = guard?.defaultModel;
  const modelReady = Boolean(d && (!Array.isArray(guardModels) || guardModels.some((m) => m.provider === d.provider && m.model === d.model)));
  const target = useMemo<AiTarget>(() => ({ store, appId: app.id, workspaceId: app.workspace_id, startId: nodes.start, agentId: nodes.agent }), [store, app, nodes]);

  return (
    <FlowStoreProvider store={store}>
      <ModelListContext.Provider value={models}>
        <WorkspaceResourcesContext.Provider value={resources}>
          <SingleRunApiContext.Provider value={singleRun}>
            <div ref={pageRef} className={s.page} style={height ? { height } : undefined} data-testid="builder-page">
              <div className={s.config}>
                <BuilderToolbar store={store} autosave={autosave} appId={app.id} />
                <ModelMissing visible={!modelReady} />
                <Section
                  id="instructions"
                  title={t('sections.instructions')}
                  help={t('sections.instructionsHelp')}
                  actions={
                    <>
                      <GenerateButton target={target} disabled={!modelReady} />
                      <OptimizeButton target={target} disabled={!modelReady} />
                    </>
                  }
                >
                  <NodeFields nodeId={nodes.agent} include={AGENT_SECTIONS.instructions} />
                </Section>
                <Section id="model" title={t('sections.model')}>
                  <NodeFields nodeId={nodes.agent} include={AGENT_SECTIONS.model} />
                </Section>
                <Section id="variables" title={t('sections.variables')} help={t('sections.variablesHelp')}>
                  <NodeFields nodeId={nodes.start} include={['variables']} />
                </Section>
                <Section id="knowledge" title={t('sections.knowledge')}>
                  <NodeFields nodeId={nodes.agent} include={AGENT_SECTIONS.knowledge} />
                </Section>
                <Section id="tools" title={t('sections.tools')}>
                  <NodeFields nodeId={nodes.agent} include={AGENT_SECTIONS.tools} />
                </Section>
                <Section id="memory" title={t('sections.memory')}>
                  <NodeFields nodeId={nodes.agent} include={AGENT_SECTIONS.memory} />
                </Section>
                <Section id="vision" title={t('sections.vision')}>
                  <NodeFields nodeId={nodes.agent} include={AGENT_SECTIONS.vision} />
                </Section>
                <Section id="features" title={t('sections.features')}>
                  <FeaturesFields />
                </Section>
              </div>
              <DebugPane store={store} appId={app.id} workspaceId={app.workspace_id} autosave={autosave} className={s.preview} />
              <ConflictDialog autosave={autosave} />
            </div>
          </SingleRunApiContext.Provider>
        </WorkspaceResourcesContext.Provider>
      </ModelListContext.Provider>
    </FlowStoreProvider>
  );
}

/** Undo, redo (also Ctrl/⌘+Z, Shift+Ctrl/⌘+Z outside text fields) and "Turn into a canvas flow". */
function BuilderToolbar({ store, autosave, appId }: { store: FlowStore; autosave: AutosaveController; appId: string }) {
  const { t } = useBuilderT();
  const navigate = useNavigate();
  const canUndo = useFlowStore((st) => st.history.canUndo);
  const canRedo = useFlowStore((st) => st.history.canRedo);
  const readOnly = useFlowStore((st) => st.readOnly);
  const [confirm, setConfirm] = useState(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.key.toLowerCase() !== 'z') return;
      // Text fields keep their own undo while typing.
      const el = e.target as HTMLElement | null;
      if (el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName))) return;
      e.preventDefault();
      if (e.shiftKey) store.redo();
      else store.undo();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store]);
  return (
    <div className={s.toolbar} role="toolbar" aria-label={t('title')}>
      <h2 className={s.toolbarTitle}>{t('title')}</h2>
      <Button size="sm" variant="ghost" iconOnly aria-label={t('undo')} title={t('undo')} disabled={!canUndo || readOnly} onClick={() => store.undo()} data-testid="builder-undo">
        <Undo2 aria-hidden="true" />
      </Button>
      <Button size="sm" variant="ghost" iconOnly aria-label={t('redo')} title={t('redo')} disabled={!canRedo || readOnly} onClick={() => store.redo()} data-testid="builder-redo">
        <Redo2 aria-hidden="true" />
      </Button>
      <Button size="sm" variant="secondary" disabled={readOnly} onClick={() => setConfirm(true)} data-testid="builder-to-canvas">
        <Workflow aria-hidden="true" />
        {t('toCanvas')}
      </Button>
      <ConfirmDialog
        open={confirm}
        onOpenChange={setConfirm}
        title={t('toCanvasTitle')}
        description={t('toCanvasBody')}
        confirmLabel={t('toCanvasConfirm')}
        cancelLabel={t('cancel')}
        onConfirm={async () => {
          store.edit((d) => void (d.editor = 'canvas'));
          // Saved before the canvas loads the draft (it would otherwise open the older revision).
          await autosave.flush();
          navigate(`/operation/app/${encodeURIComponent(appId)}/agent-flow/base`);
        }}
      />
    </div>
  );
}
