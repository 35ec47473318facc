import { ArrowUp, FileText, Image as ImageIcon, Loader2, Paperclip, Square, X } from 'lucide-react';
import { useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppFeatures } from '../../../../schemas/flow';
import type { RunFileRef } from '../../../../schemas/run-api';
import { notify } from '../../../api/reactions';
import { Button } from '../../../ui/button';
import type { PortalApi } from '../portal-api';
import { acceptOf, fileRefsOf, kindOf, type Attachment } from './attachments';
import s from './chat.module.css';

export interface ComposerProps {
  upload: AppFeatures['file_upload'];
  uploader: PortalApi['upload'];
  /** An answer is streaming: the send button becomes the stop button. */
  busy: boolean;
  stopping?: boolean;
  /** Why the user cannot send (shown in place of the placeholder); undefined = can send. */
  disabledReason?: string;
  onSend: (query: string, files: RunFileRef[]) => void;
  onStop: () => void;
}

let keySeq = 0;

/**
 * The message box: a growing text area (Enter sends, Shift+Enter breaks the line, not while an input
 * method composes), attachments where the app takes them (kinds and count from its upload feature,
 * each uploaded at once), and send or stop.
 */
export function Composer({ upload, uploader, busy, stopping, disabledReason, onSend, onStop }: ComposerProps) {
  const { t } = useTranslation('portal');
  const [text, setText] = useState('');
  const [files, setFiles] = useState<Attachment[]>([]);
  const picker = useRef<HTMLInputElement>(null);
  const disabled = disabledReason !== undefined;
  const uploading = files.some((f) => f.status === 'uploading');
  const canSend = !disabled && !busy && !uploading && text.trim().length > 0;

  const send = () => {
    if (!canSend) return;
    onSend(text.trim(), fileRefsOf(files));
    setText('');
    setFiles([]);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      send();
    }
  };

  const add = (list: FileList | null) => {
    if (!list) return;
    const room = upload.max_count - files.length;
    const chosen = [...list];
    if (chosen.length > room) notify({ level: 'warning', text: t('chat.tooManyFiles', { count: upload.max_count }) });
    for (const file of chosen.slice(0, Math.max(0, room))) {
      const kind = kindOf(file, upload.types);
      if (!kind) {
        notify({ level: 'warning', text: t('chat.uploadFailed', { name: file.name }) });
        continue;
      }
      const key = `f${++keySeq}`;
      setFiles((fs) => [...fs, { key, name: file.name, kind, status: 'uploading' }]);
      uploader(file, { signal: new AbortController().signal }).then(
        (stored) => setFiles((fs) => fs.map((f) => (f.key === key ? { ...f, status: 'done', fileId: stored.id } : f))),
        () => {
          notify({ level: 'error', text: t('chat.uploadFailed', { name: file.name }) });
          setFiles((fs) => fs.map((f) => (f.key === key ? { ...f, status: 'failed' } : f)));
        },
      );
    }
  };

  const types = upload.types.map((k) => t(`chat.fileTypes.${k}`)).join(', ');
  return (
    <div className={s.composer} data-testid="chat-composer" data-disabled={disabled || undefined}>
      {files.length > 0 && (
        <ul className={s.attachments} aria-label={t('chat.attach')}>
          {files.map((f) => (
            <li key={f.key} className={s.attachment} data-status={f.status}>
              {f.status === 'uploading' ? <Loader2 aria-label={t('chat.uploading', { name: f.name })} className={s.spin} /> : f.kind === 'image' ? <ImageIcon aria-hidden="true" /> : <FileText aria-hidden="true" />}
              <span className={s.attachmentName}>{f.name}</span>
              <button type="button" className={s.attachmentRemove} aria-label={t('chat.removeFile', { name: f.name })} onClick={() => setFiles((fs) => fs.filter((x) => x.key !== f.key))}>
                <X aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className={s.inputRow}>
        {upload.enabled && !disabled && (
          <>
            <input ref={picker} type="file" hidden multiple={upload.max_count > 1} accept={acceptOf(upload.types)} onChange={(e) => (add(e.target.files), (e.target.value = ''))} data-testid="chat-file-input" />
            <Button
              variant="ghost"
              iconOnly
              aria-label={t('chat.attach')}
              title={t('chat.attachHint', { count: upload.max_count, types })}
              disabled={files.length >= upload.max_count}
              onClick={() => picker.current?.click()}
            >
              <Paperclip aria-hidden="true" />
            </Button>
          </>
        )}
        <textarea
          className={s.textarea}
          rows={1}
          value={text}
          disabled={disabled}
          placeholder={disabledReason ?? t('chat.placeholder')}
          aria-label={t('chat.placeholder')}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          data-testid="chat-input"
        />
        {busy ? (
          <Button variant="secondary" iconOnly aria-label={stopping ? t('chat.stopping') : t('chat.stop')} title={t('chat.stop')} loading={stopping} onClick={onStop} data-testid="chat-stop">
            <Square aria-hidden="true" />
          </Button>
        ) : (
          <Button variant="primary" iconOnly aria-label={t('chat.send')} title={t('chat.send')} disabled={!canSend} onClick={send} data-testid="chat-send">
            <ArrowUp aria-hidden="true" />
          </Button>
        )}
      </div>
    </div>
  );
}
