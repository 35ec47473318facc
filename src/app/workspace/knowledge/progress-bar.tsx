import type { StatusTone } from '../../../../schemas/ui';
import s from './knowledge.module.css';

export interface ProgressBarProps {
  /** 0…100; null draws no bar (only the text). */
  percent: number | null;
  /** Text under the bar (already translated). */
  label: string;
  tone?: StatusTone;
  'data-testid'?: string;
}

/** A thin progress bar with its status line, for uploads and processing units. */
export function ProgressBar({ percent, label, tone = 'primary', ...rest }: ProgressBarProps) {
  const pct = percent === null ? null : Math.max(0, Math.min(100, Math.round(percent)));
  return (
    <div className={s.progress} data-tone={tone} data-testid={rest['data-testid']}>
      {pct !== null && (
        <div className={s.progressTrack} role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct} aria-label={label}>
          <div className={s.progressBar} style={{ width: `${pct}%` }} />
        </div>
      )}
      <span className={s.progressText}>{label}</span>
    </div>
  );
}
