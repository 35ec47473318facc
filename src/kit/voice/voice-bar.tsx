/**
 * Voice in a chat (issue 31): the portal chat of an app with voice on and the editor's debug chat,
 * each loading it lazily (neither first load carries it), each with its own speech calls (`speech`).
 * A microphone (MediaRecorder → audio-to-text → sent as the message; off with the
 * reason when the tenant has no speech-to-text model), and answers read out sentence by sentence
 * while they stream (each sentence synthesised when it completes, played in order) by a speaking
 * avatar. Speaking again, or the stop button, cuts the playback and the answer's stream. With
 * `onSpeakChange` the bar also has a speaker toggle (the debug chat: the builder turns reading on and off).
 *
 * @example
 * <VoiceBar speech={speech} name="Ana" icon={<Bot />} listen speak messages={messages} busy={false} disabled={false} onSend={send} onStop={stop} />
 */
import { Mic, Square, Volume2, VolumeX } from 'lucide-react';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { speakable, type SpeechStatus } from '../../../schemas/speech';
import { describeError, notify } from '../../api/reactions';
import { isApiError } from '../../api/request';
import { Button } from '../../ui/button';
import { SentenceSplitter } from './sentences';
import { SpeakingAvatar } from './speaking-avatar';
import { SpeechPlayer } from './speech-player';
import s from './voice.module.css';

/** The speech calls of the chat's app (the portal's or the console's); keep it stable (useMemo). */
export interface VoiceSpeech {
  status(signal: AbortSignal): Promise<SpeechStatus>;
  /** The audio of a text (WAV or MP3, as the Blob's type says). */
  tts(text: string, signal: AbortSignal): Promise<Blob>;
  stt(audio: Blob): Promise<{ text: string }>;
}

/** What the bar reads of a chat message: its answer, and whether it is still streaming. */
export interface VoiceMessage {
  key: string;
  answer: string;
  status: string;
}

export interface VoiceBarProps {
  speech: VoiceSpeech;
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
  messages: readonly VoiceMessage[];
  busy: boolean;
  /** The box is off (read-only, start inputs missing): so is the microphone. */
  disabled: boolean;
  onSend: (query: string) => void;
  onStop: () => void;
  /** Shows a speaker toggle that turns `speak` on and off. */
  onSpeakChange?: (speak: boolean) => void;
}

type MicState = 'idle' | 'recording' | 'transcribing';

const recorderType = () => ['audio/webm;codecs=opus', 'audio/webm', 'audio/ogg;codecs=opus', 'audio/mp4'].find((t) => typeof MediaRecorder !== 'undefined' && MediaRecorder.isTypeSupported(t));

const failure = (e: unknown) => (isApiError(e) ? (describeError(e)?.text ?? e.msg) : e instanceof Error ? e.message : String(e));

export default function VoiceBar({ speech, name, icon, imageUrl, clipUrl, listen, speak, messages, busy, disabled, onSend, onStop, onSpeakChange }: VoiceBarProps) {
  const { t } = useTranslation('portal');
  const [stt, setStt] = useState<boolean | null>(null);
  const [mic, setMic] = useState<MicState>('idle');
  const [speaking, setSpeaking] = useState(false);
  const [level, setLevel] = useState(0);
  const [spoken, setSpoken] = useState(0);
  const recorder = useRef<{ rec: MediaRecorder; stream: MediaStream } | null>(null);

  const player = useMemo(
    () =>
      new SpeechPlayer((text, signal) => speech.tts(text, signal), {
        onSpeaking: setSpeaking,
        onLevel: setLevel,
        onEnded: () => setSpoken((n) => n + 1),
        onError: (e) => notify({ level: 'warning', text: t('voice.speakFailed', { reason: failure(e) }) }),
      }),
    [speech, t],
  );
  useEffect(() => () => player.dispose(), [player]);

  useEffect(() => {
    if (!listen) return;
    const ctrl = new AbortController();
    speech.status(ctrl.signal).then(
      (st) => setStt(st.speech_to_text),
      () => setStt(false),
    );
    return () => ctrl.abort();
  }, [speech, listen]);

  // The answer that streams after this bar appeared is read out as its sentences complete.
  const seen = useRef<Set<string> | null>(null);
  const tracked = useRef<{ key: string; at: number; splitter: SentenceSplitter } | null>(null);
  useEffect(() => {
    if (seen.current === null) {
      // History is not read out: only answers that start streaming from now on.
      seen.current = new Set(messages.filter((m) => m.status !== 'streaming').map((m) => m.key));
    }
    if (!speak) return;
    const last = messages.at(-1);
    if (!last) return;
    const key = last.key;
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
      speech.stt(blob).then(
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
      {!listen && speak && !speaking && !onSpeakChange && <Volume2 aria-hidden="true" className={s.hint} />}
      {onSpeakChange && (
        <Button
          variant="ghost"
          iconOnly
          aria-label={t('voice.readAloud')}
          title={speak ? t('voice.readAloudOn') : t('voice.readAloudOff')}
          aria-pressed={speak}
          onClick={() => {
            if (speak) player.stop();
            onSpeakChange(!speak);
          }}
          data-testid="voice-speaker"
        >
          {speak ? <Volume2 aria-hidden="true" /> : <VolumeX aria-hidden="true" />}
        </Button>
      )}
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
