import { describeError, wasReported } from '../../../api/reactions';
import { toast } from '../../../ui/toast';

/**
 * Tells the user about a failure unless the request layer already did (its toast reaction): local
 * rejections and in-memory fakes still get a message. `reaction: 'page'` for the load of an id page's
 * own record (spec 6: "unauthorized operation", naming what is missing).
 */
export function reportError(e: unknown, reaction: 'toast' | 'page' = 'toast'): void {
  if (wasReported(e)) return;
  const m = describeError(e, reaction);
  if (m) toast.error(m.text, m.detail ? { description: m.detail } : undefined);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DD HH:mm` in local time; '' for an unreadable value. */
export function formatDateTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
