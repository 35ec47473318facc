/**
 * The base tab of /operation/app/:appId/agent-flow and /agent-team: the canvas. It loads the app's
 * draft, opens one flow store per app on the built-in node kinds, autosaves a moment after each
 * change (the status goes to the editor header), offers reload or overwrite when the save is
 * refused as based on an older draft, and saves what is pending when the builder leaves. The selected
 * node opens in the inspector, whose pickers get the app guard's models and the workspace's lists
 * (./workspace-resources.ts) and which can run the node alone;
 * the toolbar lays out (elk in a worker), exports flow files and imports them through the server
 * (which replaces the draft; the editor then reloads it).
 */
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppDetail, AppDraft } from '../../../../schemas/app';
import { DebugDock } from '../../../canvas/debug';
import { FlowEditor } from '../../../canvas/editor';
import { apiSingleRunApi, NodeInspector, SingleRunApiContext } from '../../../canvas/inspector';
import { ModelListContext, WorkspaceResourcesContext, type ModelList } from '../../../canvas/widgets';
import type { NodeRegistry } from '../../../plugin-sdk';
import { useAppGuardData } from './app-guard';
import { apiFlowImporter, ConflictDialog, DraftLoader, openEditor, useAutosaveStatus, useFillWindow } from './editor-session';
import type { EditorContext } from './editor-layout';
import s from './flow-page.module.css';
import { workspaceResources } from './workspace-resources';
import { StoredSecretsContext } from '../../../canvas/editor/stored-secrets';
import { useSession } from '../../session';

export default function FlowPage() {
  return <DraftLoader render={(app, draft, setSaveStatus, registry) => <FlowWorkspace key={app.id} app={app} draft={draft} registry={registry} setSaveStatus={setSaveStatus} />} />;
}

function FlowWorkspace({ app, draft, registry, setSaveStatus }: { app: AppDetail; draft: AppDraft; registry: NodeRegistry; setSaveStatus: EditorContext['setSaveStatus'] }) {
  const guard = useAppGuardData();
  // New model nodes take the tenant's default LLM (read when a node is added).
  const defaultModel = useRef(guard?.defaultModel);
  defaultModel.current = guard?.defaultModel;
  const [{ store, autosave, layout, secrets }] = useState(() => openEditor(app, draft, registry, () => defaultModel.current));
  const storedSecrets = useSyncExternalStore(secrets.subscribe, secrets.get);
  const guardModels = guard?.models;
  const models = useMemo<ModelList>(() => ({ models: guardModels ?? [], complete: Array.isArray(guardModels) }), [guardModels]);
  const { t } = useTranslation('editor');
  const builtinTools = t('page.builtinTools');
  const resources = useMemo(() => workspaceResources(app.workspace_id, { builtinTools }), [app.workspace_id, builtinTools]);
  // "Run this node" runs the stored draft: what is pending is saved first.
  const singleRun = useMemo(() => apiSingleRunApi(app.id, app.workspace_id, autosave), [app.id, app.workspace_id, autosave]);
  const flowFile = useMemo(() => ({ name: app.name, description: app.description ?? '' }), [app.name, app.description]);
  const importer = useMemo(() => apiFlowImporter(app, autosave), [app, autosave]);
  const renderInspector = useCallback((id: string) => <NodeInspector nodeId={id} onClose={() => store.setSelection({ nodes: [], edges: [] })} />, [store]);
  // The inspector's width is the builder's own (two people sharing a browser keep theirs).
  const userId = useSession((st) => st.user?.id);
  const pageRef = useRef<HTMLDivElement>(null);
  const height = useFillWindow(pageRef);
  useAutosaveStatus(autosave, layout, setSaveStatus);

  return (
    <div ref={pageRef} className={s.page} style={height ? { height } : undefined} data-testid="flow-page">
      <ModelListContext.Provider value={models}>
        <WorkspaceResourcesContext.Provider value={resources}>
          <SingleRunApiContext.Provider value={singleRun}>
            <StoredSecretsContext.Provider value={storedSecrets}>
              <FlowEditor
                store={store}
                className={s.editor}
                layout={layout}
                flowFile={flowFile}
                importer={importer}
                renderInspector={renderInspector}
                inspectorWidthKey={userId ? `weft.inspector-width.${userId}` : undefined}
              />
            </StoredSecretsContext.Provider>
          </SingleRunApiContext.Provider>
        </WorkspaceResourcesContext.Provider>
      </ModelListContext.Provider>
      <DebugDock store={store} appId={app.id} workspaceId={app.workspace_id} autosave={autosave} />
      <ConflictDialog autosave={autosave} />
    </div>
  );
}
