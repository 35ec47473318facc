import { RotateCw, Upload, X } from 'lucide-react';
import { useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { UploadedFile } from '../../../api/datasets-contract';
import { isAbortError } from '../../../api/request';
import { translateMessage } from '../../../kit/i18n';
import type { MessageDescriptor } from '../../../kit/schema-form/messages';
import { uploadLimits } from '../../../kit/widgets/file-upload';
import { formatBytes, typesText } from '../../../kit/widgets/upload-rules';
import { Button } from '../../../ui';
import kit from '../../../kit/widgets/file-upload.module.css';
import { ProgressBar } from './progress-bar';
import { ACCEPT, pickKnowledgeFiles, type UploadKind } from './upload-rules';
import s from './knowledge.module.css';

/** One file of the queue: uploading (with progress), stored, or failed. */
export interface QueuedFile {
  key: string;
  file: File;
  status: 'uploading' | 'done' | 'error';
  progress: number;
  stored?: UploadedFile;
  abort?: AbortController;
}

export interface UploadQueueProps {
  kind: UploadKind;
  /** Names of the knowledge base's units (no duplicates in one base). */
  taken: readonly string[];
  upload: (file: File, opts: { onProgress: (p: number) => void; signal: AbortSignal }) => Promise<UploadedFile>;
  value: QueuedFile[];
  onChange: (next: (list: QueuedFile[]) => QueuedFile[]) => void;
  /** Default: the configured count limit. */
  maxCount?: number;
  /** No picking yet (e.g. until the base's unit names are known). */
  disabled?: boolean;
}

let seq = 0;

/**
 * The file picker of the add pages: drop or browse, the spec 5 type, size, count and duplicate-name
 * rules with their messages, then one upload per file with its own progress bar, retry and remove.
 */
export function UploadQueue({ kind, taken, upload, value, onChange, maxCount, disabled }: UploadQueueProps) {
  const { t, i18n } = useTranslation(['knowledge', 'kit']);
  const input = useRef<HTMLInputElement>(null);
  const [refused, setRefused] = useState<MessageDescriptor[]>([]);
  const [over, setOver] = useState(false);
  const limits = uploadLimits({ accept: ACCEPT[kind], maxCount });
  const full = value.length >= limits.maxCount;

  const patch = (key: string, p: Partial<QueuedFile>) => onChange((list) => list.map((q) => (q.key === key ? { ...q, ...p } : q)));

  const start = (item: QueuedFile) => {
    const abort = new AbortController();
    patch(item.key, { status: 'uploading', progress: 0, abort });
    upload(item.file, { signal: abort.signal, onProgress: (p) => patch(item.key, { progress: p }) }).then(
      (stored) => !abort.signal.aborted && patch(item.key, { status: 'done', progress: 1, stored, abort: undefined }),
      (e: unknown) => !abort.signal.aborted && !isAbortError(e) && patch(item.key, { status: 'error', abort: undefined }),
    );
  };

  const take = (files: FileList | null) => {
    if (!files || disabled) return;
    const { accepted, rejected } = pickKnowledgeFiles(Array.from(files), { taken: [...taken, ...value.map((q) => q.file.name)], inList: value.length, limits });
    setRefused(rejected);
    const items = accepted.map((file): QueuedFile => ({ key: `q${++seq}`, file, status: 'uploading', progress: 0 }));
    onChange((list) => [...list, ...items]);
    // The items are in the list before their first progress patch.
    queueMicrotask(() => items.forEach(start));
  };

  const remove = (q: QueuedFile) => {
    q.abort?.abort();
    onChange((list) => list.filter((x) => x.key !== q.key));
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    take(e.dataTransfer.files);
  };

  return (
    <div className={s.stack} data-testid="upload-queue">
      {!full && (
        <div
          className={kit.zone}
          data-over={over || undefined}
          data-disabled={disabled || undefined}
          onDragOver={(e) => {
            e.preventDefault();
            setOver(true);
          }}
          onDragLeave={() => setOver(false)}
          onDrop={onDrop}
        >
          <Upload aria-hidden="true" className={kit.zoneIcon} />
          <span>
            {t('kit:upload.drop')}{' '}
            <button type="button" className={kit.browse} disabled={disabled} onClick={() => input.current?.click()} data-testid="upload-browse">
              {t('kit:upload.browse')}
            </button>
          </span>
          <span className={kit.hint}>{t('kit:upload.hint', { types: typesText(ACCEPT[kind]), max: limits.maxMb, count: limits.maxCount })}</span>
          <input
            ref={input}
            type="file"
            hidden
            multiple={limits.maxCount > 1}
            accept={ACCEPT[kind].join(',')}
            data-testid="upload-input"
            onChange={(e) => {
              take(e.target.files);
              e.target.value = '';
            }}
          />
        </div>
      )}
      {refused.length > 0 && (
        <ul className={kit.rejected} role="alert">
          {refused.map((m, i) => (
            <li key={i}>
              {m.params?.name ? <strong>{String(m.params.name)}: </strong> : null}
              {translateMessage(i18n, m)}
            </li>
          ))}
        </ul>
      )}
      {value.length > 0 && (
        <ul className={s.fileList} aria-label={t('kit:upload.files')}>
          {value.map((q) => (
            <li key={q.key} className={s.fileRow} data-status={q.status} data-testid="upload-row">
              <span className={s.fileName} title={q.file.name}>
                {q.file.name} <span className={s.muted}>{formatBytes(q.file.size)}</span>
              </span>
              <ProgressBar
                percent={q.status === 'error' ? 100 : q.progress * 100}
                tone={q.status === 'error' ? 'danger' : q.status === 'done' ? 'success' : 'primary'}
                label={q.status === 'done' ? t('upload.done') : q.status === 'error' ? t('upload.failed') : t('upload.progress', { pct: Math.round(q.progress * 100) })}
              />
              <span className={s.inline}>
                {q.status === 'error' && (
                  <Button size="sm" variant="ghost" iconOnly aria-label={t('kit:upload.retry')} onClick={() => start(q)}>
                    <RotateCw aria-hidden="true" />
                  </Button>
                )}
                <Button size="sm" variant="ghost" iconOnly aria-label={t('kit:upload.remove', { name: q.file.name })} onClick={() => remove(q)}>
                  <X aria-hidden="true" />
                </Button>
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
