/**
 * The character form's own widgets (SchemaForm `widgets`): the portrait (an image uploaded by the icon
 * rules), the idle clip (mp4/webm) and the voice (model, voice, speed). Each keeps the field's value
 * as the API takes it: a file id or null, and the voice object.
 */
import { ImageUp, Video, X } from 'lucide-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CLIP_MAX_MB, type CharacterVoice } from '../../../../schemas/digital-human';
import { uploadFile } from '../../../api/files';
import { describeError } from '../../../api/reactions';
import type { WidgetRenderer } from '../../../kit/schema-form';
import { NumberInput } from '../../../kit/widgets/number-input';
import { ICON_UPLOAD } from '../../../kit/widgets/upload-rules';
import { Button, Input } from '../../../ui';
import { mediaUrl } from './media-url';
import s from './characters.module.css';

function MediaField({ value, onChange, kind, disabled }: { value: unknown; onChange: (v: unknown) => void; kind: 'portrait' | 'clip'; disabled: boolean }) {
  const { t } = useTranslation('digitalHuman');
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = typeof value === 'string' && value ? value : null;
  const accept = kind === 'portrait' ? ICON_UPLOAD.accept.join(',') : '.mp4,.webm';
  const maxMb = kind === 'portrait' ? ICON_UPLOAD.maxMb : CLIP_MAX_MB;
  const pick = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    if (file.size > maxMb * 1024 * 1024) {
      setError(t('character.uploadFailed'));
      return;
    }
    setBusy(true);
    try {
      const up = await uploadFile(file, kind === 'portrait' ? 'icon' : 'clip', { reaction: 'silent' });
      onChange(up.id);
    } catch (e) {
      setError(describeError(e, 'silent')?.text ?? t('character.uploadFailed'));
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };
  return (
    <div className={s.media} data-testid={`character-${kind}`}>
      <div className={s.mediaPreview}>
        {id ? (
          kind === 'portrait' ? (
            <img src={mediaUrl(id)} alt="" />
          ) : (
            <video src={mediaUrl(id)} muted loop autoPlay playsInline />
          )
        ) : kind === 'portrait' ? (
          <ImageUp aria-hidden="true" />
        ) : (
          <Video aria-hidden="true" />
        )}
      </div>
      <div className={s.mediaActions}>
        <input ref={input} type="file" hidden accept={accept} onChange={(e) => void pick(e.target.files?.[0])} data-testid={`character-${kind}-input`} />
        <Button type="button" size="sm" disabled={disabled || busy} loading={busy} onClick={() => input.current?.click()}>
          {busy ? t('character.uploading') : id ? t('character.replace') : t('character.upload')}
        </Button>
        {id && (
          <Button type="button" size="sm" variant="ghost" icon={<X aria-hidden="true" />} disabled={disabled || busy} onClick={() => onChange(null)}>
            {t('character.remove')}
          </Button>
        )}
        {error && (
          <span className={s.error} role="alert">
            {error}
          </span>
        )}
      </div>
    </div>
  );
}

function VoiceField({ value, onChange, disabled }: { value: unknown; onChange: (v: unknown) => void; disabled: boolean }) {
  const { t } = useTranslation('digitalHuman');
  const v = (value ?? { speed: 1 }) as CharacterVoice;
  const set = (patch: Partial<CharacterVoice>) => {
    const next: Record<string, unknown> = { ...v, ...patch };
    // Empty texts are left out: the default model and voice then apply.
    for (const k of ['provider', 'model', 'voice']) if (next[k] === '') delete next[k];
    onChange(next);
  };
  return (
    <div className={s.voice} data-testid="character-voice">
      <label>
        <span>{t('character.voiceModel')}</span>
        <Input value={v.model ?? ''} disabled={disabled} placeholder={t('character.voiceModelPlaceholder')} maxLength={200} onChange={(e) => set({ model: e.target.value })} />
      </label>
      <label>
        <span>{t('character.voiceName')}</span>
        <Input value={v.voice ?? ''} disabled={disabled} placeholder={t('character.voiceNamePlaceholder')} maxLength={100} onChange={(e) => set({ voice: e.target.value })} />
      </label>
      <label>
        <span>{t('character.speed')}</span>
        <NumberInput value={v.speed ?? 1} disabled={disabled} min={0.5} max={2} onChange={(n) => set({ speed: typeof n === 'number' ? n : 1 })} />
      </label>
    </div>
  );
}

export const characterWidgets: Record<string, WidgetRenderer> = {
  portrait: ({ value, onChange, disabled, readOnly }) => <MediaField kind="portrait" value={value} onChange={onChange} disabled={disabled || readOnly} />,
  clip: ({ value, onChange, disabled, readOnly }) => <MediaField kind="clip" value={value} onChange={onChange} disabled={disabled || readOnly} />,
  voice: ({ value, onChange, disabled, readOnly }) => <VoiceField value={value} onChange={onChange} disabled={disabled || readOnly} />,
};
