import type { ReactNode } from 'react';
import type { StatusTone } from '../../../schemas/ui';
import { Badge } from '../../ui/badge';

/** Tones for the status words the product uses; anything else is neutral. */
export const DEFAULT_TONES: Readonly<Record<string, StatusTone>> = {
  success: 'success',
  ok: 'success',
  enabled: 'success',
  published: 'success',
  online: 'success',
  active: 'success',
  completed: 'success',
  '1': 'success',
  true: 'success',
  failed: 'danger',
  error: 'danger',
  disabled: 'neutral',
  '0': 'neutral',
  false: 'neutral',
  offline: 'neutral',
  unpublished: 'neutral',
  detecting: 'warning',
  pending: 'warning',
  running: 'info',
  processing: 'info',
  queued: 'info',
};

/** The tone of a status value (`tones` first, then {@link DEFAULT_TONES}). */
export function toneOf(value: unknown, tones?: Readonly<Record<string, StatusTone>>): StatusTone {
  const key = String(value);
  return tones?.[key] ?? DEFAULT_TONES[key] ?? 'neutral';
}

export interface StatusBadgeProps {
  value: unknown;
  /** The text (already translated). */
  label: ReactNode;
  tones?: Readonly<Record<string, StatusTone>>;
  title?: string;
}

/** A status value as a dotted badge. @example <StatusBadge value="failed" label={t('kit:status.failed')} /> */
export function StatusBadge({ value, label, tones, title }: StatusBadgeProps) {
  return (
    <Badge variant={toneOf(value, tones)} dot title={title} data-value={String(value)}>
      {label}
    </Badge>
  );
}
