import { describeError, wasReported } from '../../../api/reactions';
import { toast } from '../../../ui/toast';

/**
 * Tells the user about a failure unless the request layer already did (its toast reaction): local
 * rejections and in-memory fakes still get a message.
 */
export function reportError(e: unknown): void {
  if (wasReported(e)) return;
  const m = describeError(e);
  if (m) toast.error(m.text, m.detail ? { description: m.detail } : undefined);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DD HH:mm` in local time; '' for an unreadable value. */
export function formatDateTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
