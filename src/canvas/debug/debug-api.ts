import { createContext, useContext } from 'react';
import {
  getConversationVariables,
  setConversationVariables,
  stopRun,
  streamDraftChat,
  streamDraftWorkflow,
  type DraftChatBody,
  type DraftWorkflowBody,
  type RunStreamEvent,
} from '../../api/runs';
import type { VoiceSpeech } from '../../kit/voice/voice-bar';
import type { RunFormFile } from './start-fields';

/**
 * What the debug pane needs from the server, behind a context so stories and tests can script the
 * event stream. The default is the real API (src/api/runs.ts) for the app's project space.
 */
export interface DebugApi {
  chat(body: DraftChatBody, signal: AbortSignal): AsyncIterable<RunStreamEvent>;
  workflow(body: DraftWorkflowBody, signal: AbortSignal): AsyncIterable<RunStreamEvent>;
  stop(runId: string): Promise<unknown>;
  getVariables(conversationId: string): Promise<Record<string, unknown>>;
  setVariables(conversationId: string, variables: Record<string, unknown>): Promise<unknown>;
  upload(file: File, opts: { signal: AbortSignal }): Promise<RunFormFile>;
  /** The app's speech calls for the chat's voice bar (none: the chat has no voice). */
  speech?: VoiceSpeech;
}

/** The real API for one app. Run errors are shown in the pane itself: those calls are silent. */
export function apiDebugApi(appId: string, workspaceId: string): DebugApi {
  return {
    chat: (body, signal) => streamDraftChat(appId, body, { workspaceId, signal, reaction: 'silent' }),
    workflow: (body, signal) => streamDraftWorkflow(appId, body, { workspaceId, signal, reaction: 'silent' }),
    stop: (runId) => stopRun(appId, runId, { workspaceId, reaction: 'silent' }),
    getVariables: (id) => getConversationVariables(appId, id, { workspaceId, reaction: 'silent' }),
    setVariables: (id, variables) => setConversationVariables(appId, id, variables, { workspaceId }),
    // The files group loads with the first upload (most debug runs take no file).
    upload: async (file, { signal }) => (await import('../../api/files')).uploadFile(file, 'debug', { workspaceId, signal }),
    // The speech calls load with the voice bar, off the editor's first load.
    speech: {
      status: async (signal) => (await import('../../api/console-speech')).getAppSpeech(appId, { workspaceId, signal, reaction: 'silent' }),
      tts: async (text, signal) => (await import('../../api/console-speech')).appTextToAudio(appId, text, { workspaceId, signal, reaction: 'silent' }),
      stt: async (audio) => (await import('../../api/console-speech')).appAudioToText(appId, audio, { workspaceId, reaction: 'silent' }),
    },
  };
}

/** Stories and tests put a scripted {@link DebugApi} here; null: the real API. */
export const DebugApiContext = createContext<DebugApi | null>(null);
export const useDebugApiOverride = () => useContext(DebugApiContext);
