import type { RunFileRef, RunSource } from '../../../schemas/run-api';
import type { FlowMode } from '../../../schemas/flow';
import { conversations, messages, nodeExecutions, runs } from '../db/schema';
import { insertRows, updateRow, type RawSql } from './raw-sql';
import { usageColumns, type WholeRun } from './recorder';

/** What a run's rows hold from its start (./launch.ts), for writing it whole at its end. */
export interface RunRows {
  runId: string;
  app: { id: string; tenantId: string; workspaceId: string; mode: FlowMode };
  source: RunSource;
  versionId: string | null;
  query: string;
  inputs: Record<string, unknown>;
  files: RunFileRef[];
  userId: string;
  endUser: string | null;
  startedAt: Date;
  /** A conversation the run started (its source and name), or the existing one it continued. */
  conversation?: { id: string; created?: { source: 'draft' | 'portal' | 'api'; name: string } };
  messageId?: string;
}

/**
 * The statements of a run that ended before anything of it was written (runs/recorder.ts "whole"
 * mode): its new conversation, the run and its message with their final values, its node rows, and
 * an existing conversation's variables. Written together with other runs' (./run-writer.ts), as
 * statements put together without drizzle's builder (./raw-sql.ts: it was the server's costliest part).
 */
export function wholeRun(r: RunRows): WholeRun {
  return (nodes, result, end) => {
    const finishedAt = new Date();
    const usage = usageColumns(result.usage);
    const error = result.error ?? null;
    const out: RawSql[] = [];
    const conv = r.conversation;
    if (conv?.created) {
      out.push(
        insertRows(conversations, [
          {
            id: conv.id,
            tenantId: r.app.tenantId,
            workspaceId: r.app.workspaceId,
            appId: r.app.id,
            source: conv.created.source,
            name: conv.created.name,
            variables: result.conversation,
            versionId: r.versionId,
            createdBy: r.userId,
            endUser: r.endUser,
            createdAt: r.startedAt,
            updatedAt: finishedAt,
          },
        ]),
      );
    }
    out.push(
      insertRows(runs, [
        {
          id: r.runId,
          tenantId: r.app.tenantId,
          workspaceId: r.app.workspaceId,
          appId: r.app.id,
          mode: r.app.mode,
          source: r.source,
          versionId: r.versionId,
          query: r.query,
          inputs: r.inputs,
          createdBy: r.userId,
          endUser: r.endUser,
          conversationId: conv?.id ?? null,
          status: result.status,
          outputs: result.outputs,
          answer: result.answer,
          error,
          ...usage,
          steps: result.steps,
          elapsedMs: result.elapsedMs,
          createdAt: r.startedAt,
          finishedAt,
        },
      ]),
    );
    if (conv && r.messageId) {
      out.push(
        insertRows(messages, [
          {
            id: r.messageId,
            conversationId: conv.id,
            runId: r.runId,
            query: r.query,
            files: r.files,
            answer: result.answer,
            status: result.status,
            error,
            ...usage,
            elapsedMs: result.elapsedMs,
            ...(end.citations ? { citations: end.citations } : {}),
            createdBy: r.userId,
            createdAt: r.startedAt,
            updatedAt: finishedAt,
          },
        ]),
      );
    }
    if (nodes.length) out.push(insertRows(nodeExecutions, nodes, { onConflictDoNothing: true }));
    if (conv && !conv.created) {
      out.push(updateRow(conversations, { variables: result.conversation, updatedAt: finishedAt }, ['id', conv.id]));
    }
    return out;
  };
}
