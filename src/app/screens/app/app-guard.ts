/**
 * The app guard (spec 2 "Guards"): the loader of /operation/app/:appId. It loads the app with its
 * draft (without an X-Workspace-Id header the server looks in the app's own project space, members
 * only), switches the session to that project space, and loads the LLM model list the editor offers;
 * the model list and the session's project space are asked for at the same time as the app. An app that does not
 * exist or belongs to a space the user is not in (VALIDATION-1000) throws {@link AppNotFoundError},
 * which the route's error element shows as the error screen with the id; any other failure shows its
 * message and goes to / (spec 2). An app opened in the other editor (agent_team in agent-flow, or the
 * reverse) is sent to its own.
 */
import { redirect, useRouteLoaderData, type LoaderFunctionArgs } from 'react-router';
import type { AppDetail } from '../../../../schemas/app';
import { ErrorCode } from '../../../../schemas/errors';
import type { Workspace } from '../../../../schemas/workspace';
import { getApp } from '../../../api/apps';
import { availableModels, tenantDefaultModel } from '../../../api/models';
import { describeError, notify } from '../../../api/reactions';
import { ApiError, isAbortError } from '../../../api/request';
import { getWorkspace } from '../../../api/workspaces';
import { loginGuard } from '../../guards';
import { loginPath, paths } from '../../paths';
import { useSession } from '../../session';
import { editorKindOf, editorPath } from '../../workspace/apps/app-modes';
import { EDITOR_TABS } from './editor-tabs';
import { seedDraft } from './draft-prefetch';

/** One LLM the editor can pick (provider and model name). */
export interface LlmModel {
  provider: string;
  model: string;
  label?: string;
}

/** Loads the LLM model list for an app's editor (the tenant's: the same in every project space). */
export type LlmModelLoader = (ctx: { signal: AbortSignal }) => Promise<LlmModel[]>;

/** The tenant's enabled chat models of its configured providers (GET /api/v1/console/models/available). */
const apiModels: LlmModelLoader = async ({ signal }) =>
  (await availableModels('llm', { signal, reaction: 'silent' })).flatMap((p) => p.models.map((m) => ({ provider: p.provider, model: m.model, label: m.label })));
let modelLoader: LlmModelLoader = apiModels;

/** Replaces the model loader of the app guard (tests, stories); null: back to the model API. */
export function setLlmModelLoader(loader: LlmModelLoader | null): void {
  modelLoader = loader ?? apiModels;
}

/** Loads the tenant's default LLM (GET /api/v1/console/models/tenant-default); null: none set. */
export type DefaultModelLoader = (ctx: { signal: AbortSignal }) => Promise<LlmModel | null>;

const apiDefaultModel: DefaultModelLoader = async ({ signal }) => {
  const d = await tenantDefaultModel('llm', { signal, reaction: 'silent' });
  return d ? { provider: d.provider, model: d.model } : null;
};
let defaultModelLoader: DefaultModelLoader = apiDefaultModel;

/** Replaces the default-model loader of the app guard (tests, stories); null: back to the model API. */
export function setDefaultModelLoader(loader: DefaultModelLoader | null): void {
  defaultModelLoader = loader ?? apiDefaultModel;
}

/** What the app guard resolves to: `useRouteLoaderData('app')`, or {@link useAppGuardData}. */
export interface AppGuardData {
  app: AppDetail;
  workspace: Workspace;
  /** The models the editor offers; null when they could not be loaded (the editor still opens). */
  models: LlmModel[] | null;
  /** The tenant's default LLM, which new model nodes start with; null when none is set or it could not be loaded. */
  defaultModel: LlmModel | null;
}

/** Thrown when the app does not exist or cannot be viewed; shown by the editor's error element. */
export class AppNotFoundError extends Error {
  override readonly name = 'AppNotFoundError';
  readonly kind = 'app-not-found' as const;
  constructor(
    readonly appId: string,
    options?: { cause?: unknown },
  ) {
    super(`app ${appId} does not exist`, options);
  }
}

export const isAppNotFound = (e: unknown): e is AppNotFoundError =>
  e instanceof AppNotFoundError || (typeof e === 'object' && e !== null && (e as { kind?: unknown }).kind === 'app-not-found');

type GuardArgs = Pick<LoaderFunctionArgs, 'request' | 'params'>;

/** The editor path to send to when the URL names the other editor than the app's mode; null when right. */
export function otherEditorTarget(pathname: string, app: Pick<AppDetail, 'id' | 'type'>): string | null {
  const m = /^\/operation\/app\/[^/]+\/(agent-flow|agent-team)(?:\/([^/]+))?/.exec(pathname);
  if (!m || m[1] === editorKindOf(app.type)) return null;
  const tab = m[2];
  const target = editorKindOf(app.type);
  const keep = tab && (EDITOR_TABS[target] as readonly string[]).includes(tab);
  return keep ? `${editorPath(app)}/${tab}` : editorPath(app);
}

export async function appGuard(args: GuardArgs): Promise<AppGuardData> {
  await loginGuard(args);
  const id = args.params.appId;
  if (!id) throw redirect(paths.root);
  const { signal } = args.request;
  // The model list (the tenant's) and the session's project space, where the app usually is, are
  // asked for beside the app rather than after it.
  const sessionWorkspace = useSession.getState().workspaceId;
  const early = {
    models: modelLoader({ signal }).catch((e: unknown): Error | null => (isAbortError(e) ? (e as Error) : null)),
    defaultModel: defaultModelLoader({ signal }).catch((): null => null),
    workspace: sessionWorkspace ? getWorkspace(sessionWorkspace, { signal, reaction: 'silent' }).catch((e: unknown) => e as Error) : null,
  };
  try {
    const app = await getApp(id, null, { signal, reaction: 'silent' });
    const target = otherEditorTarget(new URL(args.request.url).pathname, app);
    if (target) throw redirect(target);
    useSession.getState().setWorkspace(app.workspace_id);
    // The canvas tab needs the draft, which came with the app: it need not ask again.
    if (/\/(agent-flow|agent-team)(\/base)?\/?$/.test(new URL(args.request.url).pathname)) seedDraft(app);
    const [workspace, models, defaultModel] = await Promise.all([
      early.workspace && sessionWorkspace === app.workspace_id
        ? early.workspace.then((w) => (w instanceof Error ? getWorkspace(app.workspace_id, { signal, reaction: 'silent' }) : w))
        : getWorkspace(app.workspace_id, { signal, reaction: 'silent' }),
      early.models.then((m) => {
        if (m instanceof Error) throw m;
        return m;
      }),
      early.defaultModel,
    ]);
    return { app, workspace, models, defaultModel };
  } catch (e) {
    if (e instanceof Response || isAbortError(e)) throw e;
    if (e instanceof ApiError && e.code === ErrorCode.PARAM) throw new AppNotFoundError(id, { cause: e });
    if (!useSession.getState().accessToken) throw redirect(loginPath(new URL(args.request.url).pathname));
    const message = describeError(e);
    if (message) notify(message);
    throw redirect(paths.root);
  }
}

/** The app guard's data inside the editor routes. */
export const useAppGuardData = () => useRouteLoaderData('app') as AppGuardData | undefined;
