import { optionLabel, type UiMeta } from '../../../schemas/ui';

type Tk = (key: string | undefined, params?: Record<string, unknown>) => string;

/**
 * The text of an enum or status value: its option label (`options` / `optionLabels`), else the
 * kit's status word (`kit:status.<value>`), else the value itself.
 */
export function valueLabel(tk: Tk, meta: UiMeta, value: unknown): string {
  const raw = value === undefined || value === null ? '' : String(value);
  if (raw === '') return '';
  const key = optionLabel(meta, raw);
  if (key !== raw) return tk(key);
  const status = `kit:status.${raw}`;
  const word = tk(status);
  return word !== status ? word : raw;
}
