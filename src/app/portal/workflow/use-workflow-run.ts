/** Running a workflow app from the portal: the stream read into the run view, and stop. */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { WebWorkflowBody } from '../../../../schemas/portal';
import { describeError } from '../../../api/reactions';
import { isApiError } from '../../../api/request';
import { isAccessLost, settleLoadError } from '../load-error';
import type { PortalApi } from '../portal-api';
import { idleRun, startingRun, withRunEnd, withRunEvent, type WorkflowRunView } from './workflow-state';

const STOP_GRACE_MS = 5000;

export function useWorkflowRun(api: PortalApi, appId: string, opts: { onDone?: () => void; onAccessLost?: () => void } = {}) {
  const [run, setRun] = useState<WorkflowRunView>(idleRun);
  const [stopping, setStopping] = useState(false);
  const live = useRef<{ ctrl: AbortController; stopped: boolean; runId: string | null } | null>(null);
  const latest = useRef(opts);
  latest.current = opts;

  const start = useCallback(
    async (body: WebWorkflowBody) => {
      if (live.current) return;
      const mine = { ctrl: new AbortController(), stopped: false, runId: null as string | null };
      live.current = mine;
      setRun(startingRun(body.inputs));
      try {
        for await (const e of api.workflow(appId, body, mine.ctrl.signal)) {
          if (e.type === 'run_created') mine.runId = e.runId;
          setRun((v) => withRunEvent(v, e));
        }
        setRun((v) => withRunEnd(v, null, mine.stopped));
      } catch (e) {
        if (isAccessLost(e)) latest.current.onAccessLost?.();
        else settleLoadError(e);
        const message = isApiError(e) ? (describeError(e)?.text ?? e.msg) : e instanceof Error ? e.message : String(e);
        setRun((v) => withRunEnd(v, { code: isApiError(e) ? e.code : 'CLIENT-STREAM', message }, mine.stopped));
      } finally {
        if (live.current === mine) live.current = null;
        setStopping(false);
        latest.current.onDone?.();
      }
    },
    [api, appId],
  );

  const stop = useCallback(() => {
    const cur = live.current;
    if (!cur) return;
    cur.stopped = true;
    setStopping(true);
    if (!cur.runId) return cur.ctrl.abort();
    api.stop(appId, cur.runId).catch(() => cur.ctrl.abort());
    setTimeout(() => cur.ctrl.abort(), STOP_GRACE_MS);
  }, [api, appId]);

  useEffect(() => () => live.current?.ctrl.abort(), []);

  return { run, setRun, start, stop, stopping, running: run.status === 'running' };
}
