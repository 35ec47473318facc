import { File as FileIcon, FileImage, RotateCw, Upload, X } from 'lucide-react';
import { useRef, useState, type DragEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { getConfig } from '../../app/config';
import { cn } from '../../ui/cn';
import { Spinner } from '../../ui/spinner';
import { translateMessage } from '../i18n';
import type { MessageDescriptor } from '../schema-form/messages';
import { ariaOf, isInvalid, type ControlAria } from './types';
import { extensionOf, formatBytes, selectFiles, typesText, UPLOAD_TYPES, type UploadLimits } from './upload-rules';
import s from './file-upload.module.css';

/** A file the server has stored (what `upload` answers). */
export interface UploadedFile {
  id?: string;
  name: string;
  size: number;
  /** Where to show or download it. */
  url?: string;
  [key: string]: unknown;
}

export interface FileUploadProps extends ControlAria {
  value: UploadedFile[];
  onChange: (files: UploadedFile[]) => void;
  /** Stores one file (the server endpoint is the screen's business). Rejecting marks the file failed. */
  upload: (file: File, opts: { signal: AbortSignal }) => Promise<UploadedFile>;
  /** Extensions ('.pdf'); default any type. See UPLOAD_TYPES for the spec's sets. */
  accept?: readonly string[];
  /** Default: the app configuration's upload.maxCount. */
  maxCount?: number;
  /** Default: the app configuration's upload.maxMb. */
  maxMb?: number;
  /** 'list' (default) or 'card' (80×80 tiles with a 48 px icon, spec 9). */
  display?: 'list' | 'card';
  /** Replaces the default hint under the drop zone. */
  hint?: ReactNode;
  /** Told about refused files (the messages also show under the drop zone). */
  onReject?: (messages: MessageDescriptor[]) => void;
  onBlur?: () => void;
  disabled?: boolean;
  readOnly?: boolean;
  invalid?: boolean;
  className?: string;
}

interface Pending {
  key: string;
  file: File;
  status: 'uploading' | 'error';
  abort?: AbortController;
}

const IMAGE_EXT = new Set<string>(UPLOAD_TYPES.image);
let seq = 0;

/** Upload limits: the props, else the app configuration. */
export function uploadLimits(p: Pick<FileUploadProps, 'accept' | 'maxCount' | 'maxMb'>): UploadLimits {
  const cfg = getConfig().upload;
  return { accept: p.accept, maxCount: p.maxCount ?? cfg.maxCount, maxMb: p.maxMb ?? cfg.maxMb };
}

/**
 * File upload with the type, size and count rules of spec 5: pick or drop files, each is checked,
 * then stored through `upload`; the list shows progress, failures (retry) and remove buttons.
 * @example <FileUpload value={files} onChange={setFiles} accept={UPLOAD_TYPES.text} upload={(f) => uploadFile(f)} />
 */
export function FileUpload(props: FileUploadProps) {
  const { value, onChange, upload, display = 'list', hint, onReject, onBlur, disabled, readOnly, className } = props;
  const { t, i18n } = useTranslation('kit');
  const input = useRef<HTMLInputElement>(null);
  const [pending, setPending] = useState<Pending[]>([]);
  const [rejected, setRejected] = useState<MessageDescriptor[]>([]);
  const [over, setOver] = useState(false);
  const limits = uploadLimits(props);
  const files = value ?? [];
  const latest = useRef(files);
  latest.current = files;
  const locked = disabled || readOnly;
  const full = files.length + pending.length >= limits.maxCount;

  const start = (item: Pending) => {
    const abort = new AbortController();
    const running: Pending = { ...item, status: 'uploading', abort };
    setPending((list) => (list.some((p) => p.key === item.key) ? list.map((p) => (p.key === item.key ? running : p)) : [...list, running]));
    upload(item.file, { signal: abort.signal }).then(
      (stored) => {
        if (abort.signal.aborted) return;
        setPending((list) => list.filter((p) => p.key !== item.key));
        onChange([...latest.current, stored]);
      },
      () => {
        if (abort.signal.aborted) return;
        setPending((list) => list.map((p) => (p.key === item.key ? { ...p, status: 'error', abort: undefined } : p)));
      },
    );
  };

  const take = (list: FileList | File[] | null) => {
    if (!list || locked) return;
    const { accepted, rejected: refused } = selectFiles(Array.from(list), files.length + pending.length, limits);
    const messages = refused.map((r) => (r.file ? { ...r.message, params: { ...r.message.params, name: r.file.name } } : r.message));
    setRejected(messages);
    if (messages.length) onReject?.(messages);
    for (const file of accepted) start({ key: `u${++seq}`, file, status: 'uploading' });
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    take(e.dataTransfer.files);
  };

  const acceptAttr = limits.accept?.join(',');
  const hintText =
    hint ??
    (limits.accept?.length
      ? t('upload.hint', { types: typesText(limits.accept), max: limits.maxMb, count: limits.maxCount })
      : t('upload.hintNoTypes', { max: limits.maxMb, count: limits.maxCount }));

  const remove = (i: number) => onChange(files.filter((_, j) => j !== i));
  const drop = (key: string) => {
    setPending((list) => {
      list.find((p) => p.key === key)?.abort?.abort();
      return list.filter((p) => p.key !== key);
    });
  };

  const rows: { key: string; name: string; size: number; url?: string; status: 'done' | 'uploading' | 'error'; onRemove: () => void; onRetry?: () => void }[] = [
    ...files.map((f, i) => ({ key: `f${i}-${f.name}`, name: f.name, size: f.size, url: f.url, status: 'done' as const, onRemove: () => remove(i) })),
    ...pending.map((p) => ({
      key: p.key,
      name: p.file.name,
      size: p.file.size,
      status: p.status,
      onRemove: () => drop(p.key),
      onRetry: p.status === 'error' ? () => start(p) : undefined,
    })),
  ];

  return (
    <div className={cn(s.root, className)} data-slot="file-upload" data-display={display}>
      {!readOnly && !full && (
        <div
          className={s.zone}
          data-over={over || undefined}
          data-disabled={disabled || undefined}
          data-invalid={isInvalid(props) || undefined}
          onDragOver={(e) => {
            e.preventDefault();
            if (!locked) setOver(true);
          }}
          onDragLeave={() => setOver(false)}
          onDrop={onDrop}
        >
          <Upload aria-hidden="true" className={s.zoneIcon} />
          <span>
            {t('upload.drop')}{' '}
            <button type="button" className={s.browse} disabled={disabled} onClick={() => input.current?.click()} {...ariaOf(props)}>
              {t('upload.browse')}
            </button>
          </span>
          <span className={s.hint}>{hintText}</span>
          <input
            ref={input}
            type="file"
            hidden
            multiple={limits.maxCount > 1}
            accept={acceptAttr}
            disabled={disabled}
            onChange={(e) => {
              take(e.target.files);
              e.target.value = '';
              onBlur?.();
            }}
          />
        </div>
      )}
      {rejected.length > 0 && (
        <ul className={s.rejected} role="alert">
          {rejected.map((m, i) => (
            <li key={i}>
              {m.params?.name ? <strong>{String(m.params.name)}: </strong> : null}
              {translateMessage(i18n, m)}
            </li>
          ))}
        </ul>
      )}
      {rows.length > 0 && (
        <ul className={display === 'card' ? s.cards : s.list} aria-label={t('upload.files')}>
          {rows.map((r) => {
            const image = IMAGE_EXT.has(extensionOf(r.name));
            const Icon = image ? FileImage : FileIcon;
            return (
              <li key={r.key} className={display === 'card' ? s.card : s.item} data-status={r.status}>
                {display === 'card' && image && r.url ? (
                  <img src={r.url} alt={r.name} className={s.thumb} />
                ) : (
                  <Icon aria-hidden="true" className={display === 'card' ? s.cardIcon : s.itemIcon} />
                )}
                <span className={s.name} title={r.name}>
                  {r.name}
                </span>
                {display === 'list' && <span className={s.size}>{formatBytes(r.size)}</span>}
                {r.status === 'uploading' && <Spinner size={14} label={t('upload.uploading')} />}
                {r.status === 'error' && (
                  <>
                    <span className={s.failed}>{t('upload.failed')}</span>
                    {r.onRetry && (
                      <button type="button" className={s.action} aria-label={t('upload.retry')} onClick={r.onRetry}>
                        <RotateCw aria-hidden="true" />
                      </button>
                    )}
                  </>
                )}
                {!locked && (
                  <button type="button" className={s.action} aria-label={t('upload.remove', { name: r.name })} onClick={r.onRemove}>
                    <X aria-hidden="true" />
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
