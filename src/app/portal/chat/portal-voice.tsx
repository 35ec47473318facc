/**
 * The portal chat's voice (issue 31): the shared voice bar (kit/voice) with the portal's speech
 * calls. Its own lazy chunk with the bar: the portal's first load carries neither.
 */
import { useMemo } from 'react';
import { getPortalSpeech, portalAudioToText, portalTextToAudio } from '../../../api/portal-speech';
import VoiceBar, { type VoiceBarProps, type VoiceSpeech } from '../../../kit/voice/voice-bar';
import { keyOf, type ChatMessage } from './chat-state';

export interface PortalVoiceProps extends Omit<VoiceBarProps, 'speech' | 'messages'> {
  appId: string;
  messages: ChatMessage[];
  /** The user's own speech rate (character settings); left out: the character's. */
  speed?: number;
}

export default function PortalVoice({ appId, messages, speed, ...bar }: PortalVoiceProps) {
  const speech = useMemo<VoiceSpeech>(
    () => ({
      status: (signal) => getPortalSpeech(appId, { signal, reaction: 'silent' }),
      tts: (text, signal) => portalTextToAudio(appId, text, { signal, reaction: 'silent' }, speed),
      stt: (audio) => portalAudioToText(appId, audio, { reaction: 'silent' }),
    }),
    [appId, speed],
  );
  const voiced = useMemo(() => messages.map((m) => ({ key: keyOf(m), answer: m.answer, status: m.status })), [messages]);
  return <VoiceBar speech={speech} messages={voiced} {...bar} />;
}
