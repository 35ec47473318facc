import { randomUUID } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import type { FlowDocument } from '../../../schemas/flow';
import { compile, run } from '../../engine';
import type { ServerContext } from '../context';
import { appDrafts, apps } from '../db/schema';
import { compileDraft } from './app-flow';
import { sseFrame } from './event-log';
import { combine } from './raw-sql';
import { buildExecutorServices } from './services';
import { wholeRun } from './whole-run';

/** Drafts compiled after a start: the most recently edited first. */
const WARM_DRAFTS_MAX = 20;

/** start → code → end: the shape of the first run the benches time (issue 32), run on no app. */
const WARM_FLOW: FlowDocument = {
  schemaVersion: 1,
  mode: 'workflow',
  nodes: [
    { id: 's', kind: 'start', kindVersion: 1, title: 's', position: { x: 0, y: 0 }, config: { variables: [{ name: 'x', label: '', type: 'number', required: true, options: [], allowed_extensions: [] }] } },
    { id: 'c', kind: 'code', kindVersion: 1, title: 'c', position: { x: 0, y: 0 }, config: { inputs: [{ name: 'x', selector: ['s', 'x'] }], code: 'function main({ x }) { return { y: x + 1 } }', outputs: [{ name: 'y', type: 'number' }] } },
    { id: 'e', kind: 'end', kindVersion: 1, title: 'e', position: { x: 0, y: 0 }, config: { outputs: [{ name: 'y', selector: ['c', 'y'] }] } },
  ],
  edges: [
    { id: 's-c', source: 's', sourceHandle: 'source', target: 'c', targetHandle: 'target' },
    { id: 'c-e', source: 'c', sourceHandle: 'source', target: 'e', targetHandle: 'target' },
  ],
  variables: { env: [], conversation: [] },
  notes: '',
};

/**
 * Makes the first run after a start about as fast as the next ones (issue 32: within 50 ms), in the
 * background once the server listens: V8 compiles a function on its first call, so the first run
 * would otherwise pay for compiling the engine, the code node's executor, the stream's frames and
 * the run's statements. A run of a built-in start → code → end flow on no app goes through them and
 * writes nothing: its events are framed and its rows put together as a real run's would be, then
 * dropped. Its code node is answered here, not by the sandbox: the sandbox's own warm job (before
 * the server listened) readied its worker and host side, and a request that arrives meanwhile must
 * find that worker free (a busy one would make it start another, hundreds of ms). Then the drafts
 * edited last are compiled into the plan cache (a first debug run skips its compile). Never fails:
 * what cannot be warmed is done by the first run itself.
 */
export async function warmRuns(ctx: ServerContext, log: (e: unknown) => void): Promise<void> {
  try {
    await dryRun(ctx);
    const rows = await ctx.db
      .select({ id: apps.id, tenantId: apps.tenantId, workspaceId: apps.workspaceId, mode: apps.type, revision: appDrafts.revision, document: appDrafts.document, secretEnv: appDrafts.secretEnv })
      .from(appDrafts)
      .innerJoin(apps, eq(apps.id, appDrafts.appId))
      .orderBy(desc(appDrafts.updatedAt))
      .limit(WARM_DRAFTS_MAX);
    for (const r of rows) {
      // A draft that cannot run (unfinished) is refused by its run as usual.
      await compileDraft(ctx, { id: r.id, tenantId: r.tenantId, workspaceId: r.workspaceId, mode: r.mode }, r).catch(() => undefined);
    }
  } catch (e) {
    log(e);
  }
}

async function dryRun(ctx: ServerContext): Promise<void> {
  const compiled = compile(WARM_FLOW, ctx.plugins.registries());
  if (!compiled.ok) throw new Error(`The warm-up flow does not compile: ${compiled.issues.map((i) => i.message).join('; ')}`);
  const runId = randomUUID();
  const nobody = '00000000-0000-0000-0000-000000000000';
  const app = { id: nobody, tenantId: nobody, workspaceId: nobody, mode: 'workflow' as const };
  let seq = 0;
  const execution = run(compiled.plan, {
    runId,
    inputs: { x: 41 },
    sys: { files: [], user_id: nobody, app_id: nobody },
    env: {},
    signal: new AbortController().signal,
    services: {
      ...buildExecutorServices(ctx, { tenantId: nobody, workspaceId: nobody, appId: nobody, userId: nobody }),
      sandbox: { run: async (job) => ({ y: Number((job.inputs as { x?: unknown }).x) + 1 }) },
    },
    bufferEvents: false,
    onEvent: (e) => void sseFrame(e, ++seq),
  });
  const result = await execution.result;
  if (result.status !== 'succeeded') throw new Error(`The warm-up run ended ${result.status}: ${result.error?.message ?? ''}`);
  const rows = wholeRun({ runId, app, source: 'api', versionId: null, query: '', inputs: { x: 41 }, files: [], userId: nobody, endUser: null, startedAt: new Date() });
  combine(rows([], result, {}));
}
