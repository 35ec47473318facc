import { createContext, useContext } from 'react';
import { runDraftNode, stopRun } from '../../api/runs';
import type { AutosaveController } from '../autosave';
import { saveBeforeRun } from '../debug/use-debug-run';
import type { SingleRunResult } from './single-run';

/**
 * What the inspector's "run this node" needs from the server, behind a context: the flow page
 * gives the real API of its app ({@link apiSingleRunApi}); stories and tests script one. Without
 * it the inspector shows no run section (a read-only viewer, a story of the form alone).
 */
export interface SingleRunApi {
  /** The memory key of the app (inputs and results are remembered per app and node). */
  scope: string;
  /** Saves what is pending: the server runs the stored draft. Null when saved, else why not. */
  prepare(): Promise<'unsaved' | 'conflict' | null>;
  run(nodeId: string, inputs: Record<string, unknown>, signal: AbortSignal): Promise<SingleRunResult>;
  /** Stops the node's run going on; false when none was found to stop. */
  stop(nodeId: string): Promise<boolean>;
}

export const SingleRunApiContext = createContext<SingleRunApi | null>(null);
export const useSingleRunApi = () => useContext(SingleRunApiContext);

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The real API for one app. Each run gets an id chosen here, so stop names exactly that run; the
 * run call answers only when the node ends, and the run may not be registered on the server yet
 * when stop is pressed at once, so stop asks a few times.
 */
export function apiSingleRunApi(appId: string, workspaceId: string, autosave?: AutosaveController): SingleRunApi {
  const opts = { workspaceId, reaction: 'silent' as const };
  const going = new Map<string, string>();
  return {
    scope: appId,
    prepare: async () => {
      const e = autosave ? await saveBeforeRun(autosave) : null;
      return e ? (e.kind === 'conflict' ? 'conflict' : 'unsaved') : null;
    },
    async run(nodeId, inputs, signal) {
      const runId = crypto.randomUUID();
      going.set(nodeId, runId);
      try {
        return await runDraftNode(appId, nodeId, inputs, { ...opts, signal }, runId);
      } finally {
        if (going.get(nodeId) === runId) going.delete(nodeId);
      }
    },
    async stop(nodeId) {
      const runId = going.get(nodeId);
      if (!runId) return false;
      for (let attempt = 0; attempt < 5; attempt++) {
        const answer = await stopRun(appId, runId, opts).catch(() => null);
        if (answer?.stopped) return true;
        if (!going.has(nodeId)) return false;
        await wait(200);
      }
      return false;
    },
  };
}
