/**
 * Voice in the portal chat (issue 31), loaded only for apps with voice on (the portal's first load
 * leaves it out): a microphone (MediaRecorder → audio-to-text → sent as the message; off with the
 * reason when the tenant has no speech-to-text model), and answers read out sentence by sentence
 * while they stream (each sentence synthesised when it completes, played in order) by a speaking
 * avatar. Speaking again, or the stop button, cuts the playback and the answer's stream.
 */
import { Mic, Square, Volume2 } from 'lucide-react';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { speakable } from '../../../../../schemas/speech';
import { getPortalSpeech, portalAudioToText, portalTextToAudio } from '../../../../api/portal-speech';
import { describeError, notify } from '../../../../api/reactions';
import { isApiError } from '../../../../api/request';
import { Button } from '../../../../ui/button';
import { keyOf, type ChatMessage } from '../../../portal/chat/chat-state';
import { SentenceSplitter } from './sentences';
import { SpeakingAvatar } from './speaking-avatar';
import { SpeechPlayer } from './speech-player';
import s from './voice.module.css';

export interface VoiceBarProps {
  appId: string;
  name: string;
  /** The app's icon, standing in for a portrait. */
  icon: ReactNode;
  imageUrl?: string;
  /** The character's idle clip, played by the avatar instead of the still portrait. */
  clipUrl?: string;
  /** The app's voice input is on. */
  listen: boolean;
  /** The app's spoken answers are on. */
  speak: boolean;
  messages: ChatMessage[];
  busy: boolean;
  /** The box is off (read-only, start inputs missing): so is the microphone. */
  disabled: boolean;
  onSend: (query: string) => void;
  onStop: () => void;
}

type MicState = 'idle' | 'recording' | 'transcribing';

const recorderType = () => ['audio/webm;codecs=opus', 'audio/webm', 'audio/ogg;codecs=opus', 'audio/mp4'].find((t) => typeof MediaRecorder !== 'undefined' && MediaRecorder.isTypeSupported(t));

const failure = (e: unknown) => (isApiError(e) ? (describeError(e)?.text ?? e.msg) : e instanceof Error ? e.message : String(e));

export default function VoiceBar({ appId, name, icon, imageUrl, clipUrl, listen, speak, messages, busy, disabled, onSend, onStop }: VoiceBarProps) {
  const { t } = useTranslation('portal');
  const [stt, setStt] = useState<boolean | null>(null);
  const [mic, setMic] = useState<MicState>('idle');
  const [speaking, setSpeaking] = useState(false);
  const [level, setLevel] = useState(0);
  const [spoken, setSpoken] = useState(0);
  const recorder = useRef<{ rec: MediaRecorder; stream: MediaStream } | null>(null);

  const player = useMemo(
    () =>
      new SpeechPlayer((text, signal) => portalTextToAudio(appId, text, { signal, reaction: 'silent' }), {
        onSpeaking: setSpeaking,
        onLevel: setLevel,
        onEnded: () => setSpoken((n) => n + 1),
        onError: (e) => notify({ level: 'warning', text: t('voice.speakFailed', { reason: failure(e) }) }),
      }),
    [appId, t],
  );
  useEffect(() => () => player.dispose(), [player]);

  useEffect(() => {
    if (!listen) return;
    const ctrl = new AbortController();
    getPortalSpeech(appId, { signal: ctrl.signal, reaction: 'silent' }).then(
      (st) => setStt(st.speech_to_text),
      () => setStt(false),
    );
    return () => ctrl.abort();
  }, [appId, listen]);

  // The answer that streams after this bar appeared is read out as its sentences complete.
  const seen = useRef<Set<string> | null>(null);
  const tracked = useRef<{ key: string; at: number; splitter: SentenceSplitter } | null>(null);
  useEffect(() => {
    if (seen.current === null) {
      // History is not read out: only answers that start streaming from now on.
      seen.current = new Set(messages.filter((m) => m.status !== 'streaming').map(keyOf));
    }
    if (!speak) return;
    const last = messages.at(-1);
    if (!last) return;
    const key = keyOf(last);
    if (!seen.current.has(key) && last.status === 'streaming') {
      seen.current.add(key);
      tracked.current = { key, at: 0, splitter: new SentenceSplitter() };
    }
    const tr = tracked.current;
    if (!tr || tr.key !== key) return;
    const delta = last.answer.slice(tr.at);
    tr.at = last.answer.length;
    const sentences = tr.splitter.push(delta);
    if (last.status !== 'streaming') {
      sentences.push(...tr.splitter.flush());
      tracked.current = null;
    }
    for (const sentence of sentences) {
      const words = speakable(sentence);
      if (words) player.say(words);
    }
  }, [messages, speak, player]);

  /** Cuts what is said and what streams: the user speaks again or pressed stop. */
  const interrupt = () => {
    player.stop();
    tracked.current = null;
    if (busy) onStop();
  };

  const startRecording = async () => {
    interrupt();
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      notify({ level: 'warning', text: t('voice.micDenied') });
      return;
    }
    const type = recorderType();
    const rec = new MediaRecorder(stream, type ? { mimeType: type } : undefined);
    const chunks: Blob[] = [];
    rec.ondataavailable = (e) => e.data.size && chunks.push(e.data);
    rec.onstop = () => {
      stream.getTracks().forEach((tr) => tr.stop());
      const blob = new Blob(chunks, { type: rec.mimeType || type || 'audio/webm' });
      setMic('transcribing');
      portalAudioToText(appId, blob, { reaction: 'silent' }).then(
        ({ text }) => {
          setMic('idle');
          if (text.trim()) onSend(text.trim());
          else notify({ level: 'info', text: t('voice.heardNothing') });
        },
        (e: unknown) => {
          setMic('idle');
          notify({ level: 'error', text: failure(e) });
        },
      );
    };
    recorder.current = { rec, stream };
    rec.start();
    setMic('recording');
  };

  const stopRecording = () => {
    const r = recorder.current;
    recorder.current = null;
    if (r && r.rec.state !== 'inactive') r.rec.stop();
  };
  useEffect(
    () => () => {
      const r = recorder.current;
      if (r) {
        r.rec.onstop = null;
        if (r.rec.state !== 'inactive') r.rec.stop();
        r.stream.getTracks().forEach((tr) => tr.stop());
      }
    },
    [],
  );

  const micOff = disabled || stt === false || mic === 'transcribing';
  const micReason = stt === false ? t('voice.noStt') : undefined;
  const hint =
    mic === 'recording' ? t('voice.listening') : mic === 'transcribing' ? t('voice.transcribing') : speaking ? t('voice.speaking') : micReason ?? (listen ? t('voice.pressToTalk') : t('voice.willSpeak'));

  return (
    <div className={s.bar} data-testid="voice-bar" data-spoken={spoken} data-mic={mic}>
      <SpeakingAvatar imageUrl={imageUrl} clipUrl={clipUrl} name={name} level={level} speaking={speaking} size={44}>
        {icon}
      </SpeakingAvatar>
      <div className={s.state}>
        <span className={s.name}>{name}</span>
        <span className={s.hint} role="status" data-testid="voice-hint">
          {hint}
        </span>
      </div>
      {speaking && (
        <Button variant="ghost" iconOnly aria-label={t('voice.stopSpeaking')} title={t('voice.stopSpeaking')} onClick={interrupt} data-testid="voice-stop">
          <Square aria-hidden="true" />
        </Button>
      )}
      {!listen && speak && !speaking && <Volume2 aria-hidden="true" className={s.hint} />}
      {listen && (
        <Button
          variant={mic === 'recording' ? 'secondary' : 'ghost'}
          iconOnly
          className={s.mic}
          data-recording={mic === 'recording' || undefined}
          aria-label={mic === 'recording' ? t('voice.stopAndSend') : t('voice.talk')}
          title={micReason ?? (mic === 'recording' ? t('voice.stopAndSend') : t('voice.talk'))}
          aria-pressed={mic === 'recording'}
          disabled={micOff}
          loading={mic === 'transcribing'}
          onClick={() => (mic === 'recording' ? stopRecording() : void startRecording())}
          data-testid="voice-mic"
        >
          <Mic aria-hidden="true" />
        </Button>
      )}
    </div>
  );
}
