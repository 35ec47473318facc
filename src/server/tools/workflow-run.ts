import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { createSecretMasker, DEFAULT_RUN_LIMITS, run, RUN_ERRORS } from '../../engine';
import { NodeExecutionError } from '../../plugin-sdk/executor';
import type { ServerContext } from '../context';
import { apps, runs } from '../db/schema';
import { compileVersion, type VersionFlow } from '../runs/app-flow';
import { RunRecorder } from '../runs/recorder';
import { runRegistry } from '../runs/registry';
import { buildExecutorServices } from '../runs/services';
import type { ToolRow, WorkspaceScope } from './rows';
import { workflowToolVersion } from './workflow-version';

/**
 * Running a workflow tool: the tool's app flow runs in this process through the same engine and
 * services as a draft run, with the call's arguments as the start form's inputs, and is stored as a
 * run of that app (it shows in the app's log, `source` `tool`, with the version it ran, by the
 * member whose run called it). The End node's outputs are the result.
 *
 * A tool made by distributing the app to the `tool` platform runs the DISTRIBUTED version; moving
 * the distribution moves the tool, and a cancelled distribution disables it
 * (`TOOL-WORKFLOW-CANCELLED`). A tool made on the tools page runs the app's latest published
 * version (./workflow-version.ts). Either way with the secret environment values frozen in that
 * version: editing the draft changes nothing. An app with no published version left cannot run as a
 * tool (`TOOL-WORKFLOW-UNPUBLISHED`).
 *
 * Guards: a run cannot call its own app, directly or through a chain of workflow tools
 * (`TOOL-WORKFLOW-RECURSION`); at most {@link WORKFLOW_TOOL_MAX_DEPTH} workflow tools run inside one
 * another (`TOOL-WORKFLOW-DEPTH`); the inner run ends when the calling node is stopped (its abort
 * signal) and by the outermost run's time limit (the chain shares one deadline).
 */

export const WORKFLOW_TOOL_MAX_DEPTH = 3;

export const WORKFLOW_RUN_ERRORS = {
  /** The tool was called outside a run (no app and member to run it for). */
  NO_RUN: 'TOOL-WORKFLOW-NOT-RUNNABLE',
  APP_MISSING: 'TOOL-WORKFLOW-APP-MISSING',
  /** The app has no published version (never published, or every version deleted). */
  UNPUBLISHED: 'TOOL-WORKFLOW-UNPUBLISHED',
  /** The tool came from a distribution to the `tool` platform that was cancelled. */
  CANCELLED: 'TOOL-WORKFLOW-CANCELLED',
  RECURSION: 'TOOL-WORKFLOW-RECURSION',
  DEPTH: 'TOOL-WORKFLOW-DEPTH',
  INPUT: 'TOOL-WORKFLOW-INPUT',
  CANNOT_RUN: 'TOOL-WORKFLOW-INVALID',
  FAILED: 'TOOL-WORKFLOW-FAILED',
} as const;

/** Who calls the tool: the workspace, and for a run the app, the member, the chain and the deadline. */
export interface WorkflowToolCaller extends WorkspaceScope {
  appId?: string;
  userId?: string;
  chain?: readonly string[];
  deadline?: number;
  /** The calling runs' secret values: the inner run masks them like its own (its inputs may hold them). */
  secrets?: readonly unknown[];
}

interface StartField {
  name?: string;
  label?: string;
  required?: boolean;
}

const isBlank = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/** Refuses arguments the start form does not have, and required fields left out, naming them. */
function checkInputs(toolName: string, document: Record<string, unknown>, args: Record<string, unknown>): void {
  const nodes = (document as { nodes?: { kind?: string; config?: { variables?: StartField[] } }[] }).nodes ?? [];
  const fields = (nodes.find((n) => n.kind === 'start')?.config?.variables ?? []).filter((v) => typeof v.name === 'string' && v.name);
  const names = fields.map((v) => v.name!);
  const listed = names.length ? names.join(', ') : 'none';
  const unknown = Object.keys(args).filter((k) => !names.includes(k));
  if (unknown.length) {
    throw new NodeExecutionError(WORKFLOW_RUN_ERRORS.INPUT, `The workflow tool "${toolName}" has no input ${unknown.map((k) => `"${k}"`).join(', ')} (its inputs: ${listed})`, {
      unknown,
      inputs: names,
    });
  }
  const missing = fields.filter((v) => v.required !== false && isBlank(args[v.name!])).map((v) => v.name!);
  if (missing.length) {
    throw new NodeExecutionError(WORKFLOW_RUN_ERRORS.INPUT, `The workflow tool "${toolName}" needs the input ${missing.map((k) => `"${k}"`).join(', ')} (its inputs: ${listed})`, {
      missing,
      inputs: names,
    });
  }
}

/** The tool's app (this workspace's, a workflow) and its latest published version compiled; clear errors otherwise. */
async function loadToolFlow(ctx: ServerContext, caller: WorkflowToolCaller, tool: ToolRow) {
  const appId = tool.workflowAppId;
  const [row] = appId
    ? await ctx.db
        .select({ id: apps.id, name: apps.name, type: apps.type })
        .from(apps)
        .where(and(eq(apps.id, appId), eq(apps.workspaceId, caller.workspaceId), eq(apps.tenantId, caller.tenantId)))
    : [];
  if (!row || row.type !== 'workflow') {
    throw new NodeExecutionError(WORKFLOW_RUN_ERRORS.APP_MISSING, `The workflow app of the tool "${tool.name}" no longer exists in this project space`);
  }
  const served = await workflowToolVersion(ctx, caller, tool.id, row.id);
  if (served.state === 'cancelled') {
    throw new NodeExecutionError(
      WORKFLOW_RUN_ERRORS.CANCELLED,
      `The workflow tool "${tool.name}" is disabled: the distribution of "${row.name}" as a tool was cancelled. Its owner can distribute it again`,
      { app_id: row.id },
    );
  }
  const { version } = served;
  if (!version) {
    throw new NodeExecutionError(WORKFLOW_RUN_ERRORS.UNPUBLISHED, `The workflow "${row.name}" of the tool "${tool.name}" has no published version: publish it first`, { app_id: row.id });
  }
  let flow: VersionFlow;
  try {
    // Compiled under the draft revision it was published from (the same document, so the same plan).
    flow = compileVersion(ctx, { id: row.id, tenantId: caller.tenantId, workspaceId: caller.workspaceId, mode: 'workflow' }, version);
  } catch (e) {
    throw new NodeExecutionError(WORKFLOW_RUN_ERRORS.CANNOT_RUN, `The workflow "${row.name}" (version ${version.version}) of the tool "${tool.name}" cannot run: ${(e as Error).message}`);
  }
  return { flow, document: version.document, appName: row.name, version: version.version };
}

/**
 * Runs the workflow tool's app with `args` as its inputs and answers the End node's outputs as the
 * tool result (`json[0]` the outputs, `text` the same as JSON). A failed inner run fails the call
 * with the inner error's code and message (the inner run stays in its app's log).
 */
export async function runWorkflowTool(
  ctx: ServerContext,
  caller: WorkflowToolCaller,
  tool: ToolRow,
  args: Record<string, unknown>,
  signal: AbortSignal,
): Promise<{ text: string; files: unknown[]; json: Record<string, unknown>[] }> {
  if (!caller.appId || !caller.userId) {
    throw new NodeExecutionError(WORKFLOW_RUN_ERRORS.NO_RUN, `The workflow tool "${tool.name}" runs only inside a run of an app`);
  }
  const appId = tool.workflowAppId ?? '';
  const chain = [...(caller.chain ?? []), caller.appId];
  if (chain.includes(appId)) {
    throw new NodeExecutionError(
      WORKFLOW_RUN_ERRORS.RECURSION,
      `The workflow tool "${tool.name}" would run its own app again inside itself: a workflow cannot call itself, directly or through other workflow tools`,
      { chain: [...chain, appId] },
    );
  }
  if (chain.length > WORKFLOW_TOOL_MAX_DEPTH) {
    throw new NodeExecutionError(WORKFLOW_RUN_ERRORS.DEPTH, `The workflow tool "${tool.name}" is nested too deep: at most ${WORKFLOW_TOOL_MAX_DEPTH} workflow tools can run inside one another`, {
      chain: [...chain, appId],
    });
  }
  const deadline = caller.deadline ?? Date.now() + DEFAULT_RUN_LIMITS.maxRunTimeMs;
  const { flow, document, appName, version } = await loadToolFlow(ctx, caller, tool);
  checkInputs(tool.name, document, args);
  const remaining = Math.floor(deadline - Date.now());
  if (remaining <= 0) throw new NodeExecutionError(RUN_ERRORS.TIME_LIMIT, `No time is left to run the workflow "${appName}": the run reached its time limit`);
  signal.throwIfAborted();

  const runId = randomUUID();
  const { app } = flow;
  const secrets = [...(caller.secrets ?? []), ...Object.values(flow.env)];
  const inputs = createSecretMasker(secrets).value(args);
  await ctx.db
    .insert(runs)
    .values({ id: runId, tenantId: app.tenantId, workspaceId: app.workspaceId, appId: app.id, mode: 'workflow', source: 'tool', versionId: flow.versionId, inputs, createdBy: caller.userId });
  const controller = new AbortController();
  const stop = () => controller.abort(signal.reason);
  signal.addEventListener('abort', stop, { once: true });
  const registry = runRegistry(ctx);
  const recorder = new RunRecorder(ctx.db, runId, (e) => console.error('storing a workflow tool run failed', e));
  const execution = run(flow.plan, {
    runId,
    inputs: args,
    sys: { files: [], user_id: caller.userId, app_id: app.id },
    env: flow.env,
    secrets: caller.secrets,
    signal: controller.signal,
    limits: { maxRunTimeMs: remaining },
    services: buildExecutorServices(ctx, { tenantId: app.tenantId, workspaceId: app.workspaceId, appId: app.id, userId: caller.userId, chain, deadline, secrets }),
    onEvent: recorder.onEvent,
    bufferEvents: false,
  });
  registry.add({ runId, tenantId: app.tenantId, appId: app.id, userId: caller.userId, controller });
  try {
    const result = await execution.result;
    await recorder.finish(result);
    if (result.status !== 'succeeded') {
      const inner = result.error ?? { code: WORKFLOW_RUN_ERRORS.FAILED, message: result.status };
      throw new NodeExecutionError(inner.code || WORKFLOW_RUN_ERRORS.FAILED, `The workflow "${appName}" ${result.status === 'stopped' ? 'was stopped' : 'failed'}: ${inner.message}`, {
        run_id: runId,
        app_id: app.id,
        version,
      });
    }
    return { text: JSON.stringify(result.outputs), files: [], json: [result.outputs] };
  } finally {
    registry.remove(runId);
    signal.removeEventListener('abort', stop);
  }
}
