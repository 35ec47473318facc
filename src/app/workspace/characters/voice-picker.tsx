/**
 * The character's voice (issue 31): a speech model picked from the tenant's tts models (or the
 * default one, or the built-in offline voice), one of that model's voices picked from
 * GET /console/characters/voices (the offline voice offers its languages), the speed, and a
 * "listen" button that speaks a sample in that voice (POST /console/characters/voice-sample).
 * The value is the API's CharacterVoice: provider, model and voice left out mean the defaults.
 */
import { Play } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CHARACTER_SPEED_MAX, CHARACTER_SPEED_MIN, type CharacterVoice } from '../../../../schemas/digital-human';
import { OFFLINE_VOICE_MODEL, OFFLINE_VOICE_PROVIDER, type VoiceOption } from '../../../../schemas/speech';
import { listVoices, voiceSample } from '../../../api/digital-humans';
import { availableModels } from '../../../api/models';
import { describeError } from '../../../api/reactions';
import { NumberInput } from '../../../kit/widgets/number-input';
import { SelectInput } from '../../../kit/widgets/select-input';
import { Button } from '../../../ui';
import s from './characters.module.css';

/** Select values: Radix reserves '' for "none", so the defaults get words of their own. */
const DEFAULT = '__default__';
const OFFLINE = `${OFFLINE_VOICE_PROVIDER}::${OFFLINE_VOICE_MODEL}`;
const modelKey = (v: CharacterVoice) => (v.provider && v.model ? `${v.provider}::${v.model}` : DEFAULT);

export function VoicePicker({ value, onChange, disabled }: { value: unknown; onChange: (v: unknown) => void; disabled: boolean }) {
  const { t, i18n } = useTranslation('digitalHuman');
  const v = (value ?? { speed: 1 }) as CharacterVoice;
  const [models, setModels] = useState<{ value: string; label: string }[]>([]);
  const [voices, setVoices] = useState<VoiceOption[] | null>(null);
  const [playing, setPlaying] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const audio = useRef<HTMLAudioElement | null>(null);

  const set = (patch: Partial<CharacterVoice>) => {
    const next: Record<string, unknown> = { ...v, ...patch };
    for (const k of ['provider', 'model', 'voice']) if (next[k] === '' || next[k] === undefined) delete next[k];
    onChange(next);
  };

  useEffect(() => {
    const ctrl = new AbortController();
    availableModels('tts', { signal: ctrl.signal, reaction: 'silent' }).then(
      (ps) => setModels(ps.flatMap((p) => p.models.map((m) => ({ value: `${p.provider}::${m.model}`, label: `${p.label} / ${m.label || m.model}` })))),
      () => setModels([]),
    );
    return () => ctrl.abort();
  }, []);

  // The voices of the chosen model: asked again whenever the model changes.
  const key = modelKey(v);
  useEffect(() => {
    const ctrl = new AbortController();
    setVoices(null);
    const [provider, model] = key === DEFAULT ? [undefined, undefined] : key.split('::');
    listVoices({ provider, model }, { signal: ctrl.signal, reaction: 'silent' }).then(setVoices, () => setVoices([]));
    return () => ctrl.abort();
  }, [key]);

  useEffect(() => () => audio.current?.pause(), []);

  const modelOptions = useMemo(() => {
    const opts = [{ value: DEFAULT, label: t('character.voiceModelDefault') }, { value: OFFLINE, label: t('character.offlineVoice') }, ...models];
    // A model saved earlier that the tenant no longer offers stays visible rather than silently dropped.
    if (key !== DEFAULT && !opts.some((o) => o.value === key)) opts.push({ value: key, label: `${v.provider} / ${v.model}` });
    return opts;
  }, [models, key, t, v.provider, v.model]);

  const voiceOptions = useMemo(() => {
    const opts = [{ value: DEFAULT, label: t('character.voiceNamePlaceholder') }, ...(voices ?? []).map((o) => ({ value: o.id, label: o.label }))];
    if (v.voice && !opts.some((o) => o.value === v.voice)) opts.push({ value: v.voice, label: v.voice });
    return opts;
  }, [voices, v.voice, t]);

  const listen = async () => {
    setError(null);
    audio.current?.pause();
    setPlaying(true);
    // The offline voice's "voices" are languages: the sample is said in that one, else in the page's.
    const language = v.voice === 'zh' || v.voice === 'en' ? v.voice : i18n.language.startsWith('zh') ? 'zh' : 'en';
    try {
      const blob = await voiceSample({ voice: v, text: t('character.sampleText', { lng: language }), language }, { reaction: 'silent' });
      const url = URL.createObjectURL(blob);
      const a = new Audio(url);
      audio.current = a;
      const done = () => {
        URL.revokeObjectURL(url);
        setPlaying(false);
      };
      a.onended = done;
      a.onerror = done;
      await a.play();
    } catch (e) {
      setPlaying(false);
      setError(describeError(e, 'silent')?.text ?? t('character.sampleFailed'));
    }
  };

  return (
    <div className={s.voice} data-testid="character-voice">
      <label>
        <span>{t('character.voiceModel')}</span>
        <SelectInput
          aria-label={t('character.voiceModel')}
          value={key}
          options={modelOptions}
          disabled={disabled}
          onChange={(k) => {
            const [provider, model] = !k || k === DEFAULT ? [undefined, undefined] : k.split('::');
            // Another model has other voices: the voice goes back to its default.
            set({ provider, model, voice: undefined });
          }}
        />
      </label>
      <label>
        <span>{t('character.voiceName')}</span>
        <SelectInput
          aria-label={t('character.voiceName')}
          value={v.voice ?? DEFAULT}
          options={voiceOptions}
          disabled={disabled || voices === null}
          onChange={(id) => set({ voice: !id || id === DEFAULT ? undefined : id })}
        />
      </label>
      <label>
        <span>{t('character.speed')}</span>
        <NumberInput value={v.speed ?? 1} disabled={disabled} min={CHARACTER_SPEED_MIN} max={CHARACTER_SPEED_MAX} onChange={(n) => set({ speed: typeof n === 'number' ? n : 1 })} />
      </label>
      <div className={s.voiceListen}>
        <Button type="button" size="sm" icon={<Play aria-hidden="true" />} loading={playing} disabled={disabled || playing} onClick={() => void listen()} data-testid="character-voice-listen">
          {t('character.listen')}
        </Button>
        {error && (
          <span className={s.error} role="alert">
            {error}
          </span>
        )}
      </div>
    </div>
  );
}
