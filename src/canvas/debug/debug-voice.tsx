/**
 * The debug chat's voice (issue 31): the portal's voice bar (kit/voice) over the console's speech
 * calls, so a builder tries the voice conversation before turning it on: the microphone (off with the
 * reason when the tenant has no speech-to-text model), answers read out as they stream (the speaker
 * toggle), and speaking again cuts the answer. A lazy chunk: the editor's first load leaves it out.
 */
import { Bot } from 'lucide-react';
import { useMemo } from 'react';
import VoiceBar, { type VoiceSpeech } from '../../kit/voice/voice-bar';
import { useRunTrace, type RunStore } from './run-store';
import type { RunTrace } from './trace';

export interface DebugVoiceProps {
  speech: VoiceSpeech;
  name: string;
  runs: RunStore;
  /** The answered turns, oldest first, and the key of the turn whose answer streams now (null: none). */
  answered: readonly { key: number; trace?: RunTrace }[];
  liveKey: number | null;
  speak: boolean;
  onSpeakChange: (speak: boolean) => void;
  busy: boolean;
  onSend: (query: string) => void;
  onStop: () => void;
}

const streaming = (t: RunTrace) => t.status === 'running' || t.status === 'pending';

export default function DebugVoice({ speech, name, runs, answered, liveKey, ...bar }: DebugVoiceProps) {
  // This component re-renders with every streamed token (the live trace); the chat's turns do not.
  const live = useRunTrace(runs);
  const done = useMemo(() => answered.filter((x) => x.trace).map((x) => ({ key: String(x.key), answer: x.trace!.answer, status: x.trace!.status })), [answered]);
  const messages = useMemo(
    () => (liveKey === null ? done : [...done, { key: String(liveKey), answer: live.answer, status: streaming(live) ? 'streaming' : live.status }]),
    [done, liveKey, live],
  );
  return <VoiceBar speech={speech} name={name} icon={<Bot aria-hidden="true" size={28} />} listen messages={messages} disabled={false} {...bar} />;
}
