import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SpeechStatus } from '../../../schemas/speech';
import { initI18n } from '../../i18n';
import { createNodeRegistry } from '../../plugin-sdk';
import type { VoiceSpeech } from '../../kit/voice/voice-bar';
import { builtinPlugins } from '../builtin-plugins';
import { createFlowStore } from '../store/create-flow-store';
import { DebugApiContext } from './debug-api';
import { DebugPane } from './debug-pane';
import { createScriptedDebugApi } from './scripted-debug-api';

/**
 * The debug chat's voice (issue 31): the portal's voice bar over the app's speech calls, in the
 * editor's debug pane. The chat runs are scripted; the speech calls are recorded.
 */

const registry = createNodeRegistry(builtinPlugins);

function scriptedSpeech(status: Partial<SpeechStatus> = {}) {
  const said: string[] = [];
  const heard: Blob[] = [];
  const speech: VoiceSpeech = {
    status: async () => ({ speech_to_text: false, text_to_speech: { provider: 'weft_offline', model: 'espeak-ng', offline: true }, ...status }),
    tts: async (text) => {
      said.push(text);
      return new Blob([new Uint8Array(44)], { type: 'audio/wav' });
    },
    stt: async (audio) => {
      heard.push(audio);
      return { text: 'What is the weather?' };
    },
  };
  return { speech, said, heard };
}

function setup(status?: Partial<SpeechStatus>) {
  const api = createScriptedDebugApi({ delayMs: 1, reply: () => 'Sunny today. Warm tomorrow.' });
  const voice = scriptedSpeech(status);
  const store = createFlowStore({ registry, mode: 'chatflow', freeze: false });
  render(
    <DebugApiContext value={{ ...api, speech: voice.speech }}>
      <DebugPane store={store} appId="app-1" workspaceId="ws-1" />
    </DebugApiContext>,
  );
  return { api, ...voice };
}

beforeAll(async () => {
  await initI18n('en');
  // jsdom plays no media: playing ends at once, as a short sentence would.
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (this: HTMLMediaElement) {
    setTimeout(() => this.dispatchEvent(new Event('ended')), 1);
    return Promise.resolve();
  });
  vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => undefined);
  URL.createObjectURL ??= () => 'blob:x';
  URL.revokeObjectURL ??= () => undefined;
});
afterEach(cleanup);

describe('debug chat voice', () => {
  it('has a microphone, off with the reason when the tenant has no speech-to-text model', async () => {
    setup();
    const mic = await screen.findByTestId('voice-mic');
    await waitFor(() => expect(mic).toBeDisabled());
    expect(mic.getAttribute('title')).toMatch(/speech-to-text model/);
    expect(screen.getByTestId('voice-hint').textContent).toMatch(/speech-to-text model/);
  });

  it('reads answers aloud only with the speaker on; the toggle turns it on and off', async () => {
    const { api, said } = setup({ speech_to_text: true });
    const speaker = await screen.findByTestId('voice-speaker');
    expect(speaker.getAttribute('aria-pressed')).toBe('false');
    fireEvent.change(screen.getByTestId('chat-input'), { target: { value: 'Weather?' } });
    fireEvent.click(screen.getByTestId('chat-send'));
    await waitFor(() => expect(screen.getByTestId('chat-answer').dataset.status).toBe('succeeded'));
    expect(said).toEqual([]);

    fireEvent.click(speaker);
    expect(speaker.getAttribute('aria-pressed')).toBe('true');
    fireEvent.change(screen.getByTestId('chat-input'), { target: { value: 'And tomorrow?' } });
    fireEvent.click(screen.getByTestId('chat-send'));
    await waitFor(() => expect(said).toEqual(['Sunny today.', 'Warm tomorrow.']));
    expect(api.calls.filter((c) => c.method === 'chat')).toHaveLength(2);
  });

  it('speaking sends what was heard as the message and interrupts the answer that streams', async () => {
    const tracks = [{ stop: vi.fn() }];
    const recorders: { onstop: (() => void) | null; ondataavailable: ((e: { data: Blob }) => void) | null; state: string; mimeType: string }[] = [];
    class FakeRecorder {
      onstop: (() => void) | null = null;
      ondataavailable: ((e: { data: Blob }) => void) | null = null;
      state = 'inactive';
      mimeType = 'audio/webm';
      static isTypeSupported = (t: string) => t === 'audio/webm';
      constructor() {
        recorders.push(this);
      }
      start() {
        this.state = 'recording';
      }
      stop() {
        this.state = 'inactive';
        this.ondataavailable?.({ data: new Blob([new Uint8Array(10)], { type: 'audio/webm' }) });
        this.onstop?.();
      }
    }
    vi.stubGlobal('MediaRecorder', FakeRecorder);
    Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: { getUserMedia: async () => ({ getTracks: () => tracks }) } });
    try {
      const slow = createScriptedDebugApi({ delayMs: 200, reply: () => 'A long answer that takes a while to stream. It goes on and on.' });
      const voice = scriptedSpeech({ speech_to_text: true });
      const store = createFlowStore({ registry, mode: 'chatflow', freeze: false });
      render(
        <DebugApiContext value={{ ...slow, speech: voice.speech }}>
          <DebugPane store={store} appId="app-1" workspaceId="ws-1" />
        </DebugApiContext>,
      );
      const mic = await screen.findByTestId('voice-mic');
      await waitFor(() => expect(mic).toBeEnabled());
      fireEvent.change(screen.getByTestId('chat-input'), { target: { value: 'Tell me a story' } });
      fireEvent.click(screen.getByTestId('chat-send'));
      await screen.findByTestId('chat-stop');
      // Speaking while the answer streams stops its run.
      await act(async () => void fireEvent.click(mic));
      await waitFor(() => expect(slow.calls.some((c) => c.method === 'stop')).toBe(true));
      expect(mic.getAttribute('aria-pressed')).toBe('true');
      await act(async () => void fireEvent.click(mic));
      await waitFor(() => expect(slow.calls.filter((c) => c.method === 'chat').map((c) => (c.args[0] as { query: string }).query)).toEqual(['Tell me a story', 'What is the weather?']));
      expect(voice.heard).toHaveLength(1);
      expect(tracks[0]!.stop).toHaveBeenCalled();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
