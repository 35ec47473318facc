/**
 * The character form's own widgets (SchemaForm `widgets`): the portrait (an image uploaded by the icon
 * rules; the server draws an SVG into a PNG when the character is saved), the idle clip (mp4/webm) and the
 * voice (./voice-picker.tsx). Each keeps the field's value as the API takes it: a file id or null,
 * and the voice object.
 */
import { ImageUp, Video, X } from 'lucide-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CLIP_MAX_MB, PORTRAIT_EXTENSIONS, PORTRAIT_MIME_TYPES } from '../../../../schemas/digital-human';
import { ErrorCode } from '../../../../schemas/errors';
import { uploadFile } from '../../../api/files';
import { describeError } from '../../../api/reactions';
import type { WidgetRenderer } from '../../../kit/schema-form';
import { ICON_UPLOAD } from '../../../kit/widgets/upload-rules';
import { Button } from '../../../ui';
import { mediaUrl } from './media-url';
import { VoicePicker } from './voice-picker';
import s from './characters.module.css';

function MediaField({ value, onChange, kind, disabled }: { value: unknown; onChange: (v: unknown) => void; kind: 'portrait' | 'clip'; disabled: boolean }) {
  const { t } = useTranslation('digitalHuman');
  const { t: te } = useTranslation('errors');
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = typeof value === 'string' && value ? value : null;
  const accept = kind === 'portrait' ? PORTRAIT_EXTENSIONS.join(',') : '.mp4,.webm';
  const maxMb = kind === 'portrait' ? ICON_UPLOAD.maxMb : CLIP_MAX_MB;
  const pick = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    // A file that is no image (the picker's filter is only a hint) is refused before the upload, with
    // the server's own catalogue message (DH-1050).
    const ext = file.name.slice(file.name.lastIndexOf('.')).toLowerCase();
    if (kind === 'portrait' && !((PORTRAIT_EXTENSIONS as readonly string[]).includes(ext) && (!file.type || (PORTRAIT_MIME_TYPES as readonly string[]).includes(file.type)))) {
      setError(te(`codes.${ErrorCode.DH_PORTRAIT_FORMAT}`));
      if (input.current) input.current.value = '';
      return;
    }
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

export const characterWidgets: Record<string, WidgetRenderer> = {
  portrait: ({ value, onChange, disabled, readOnly }) => <MediaField kind="portrait" value={value} onChange={onChange} disabled={disabled || readOnly} />,
  clip: ({ value, onChange, disabled, readOnly }) => <MediaField kind="clip" value={value} onChange={onChange} disabled={disabled || readOnly} />,
  voice: ({ value, onChange, disabled, readOnly }) => <VoicePicker value={value} onChange={onChange} disabled={disabled || readOnly} />,
};
