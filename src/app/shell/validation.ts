/**
 * Form validation messages that follow the language: rules store a message *reference* (an i18n key
 * plus options) and the form translates it when it renders, so switching the language re-translates
 * the errors already shown (spec 5).
 *
 * @example
 * register('name', { required: vmsg('shell:validation.required'), maxLength: { value: 50, message: vmsg('shell:validation.maxLength', { max: 50 }) } })
 * <Field error={tv(errors.name?.message)}>…</Field>
 */
import { hasText, tDynamic } from '../../i18n';

const SEP = '\u0001';

/** A message reference for a react-hook-form rule. */
export function vmsg(key: string, options?: Record<string, unknown>): string {
  return options ? `${key}${SEP}${JSON.stringify(options)}` : key;
}

/** Translates a message reference (plain text passes through). */
export function tv(message: string | undefined | null): string | undefined {
  if (!message) return undefined;
  const i = message.indexOf(SEP);
  if (i < 0) return hasText(message) ? tDynamic(message) : message;
  let options: Record<string, unknown> | undefined;
  try {
    options = JSON.parse(message.slice(i + 1)) as Record<string, unknown>;
  } catch {
    options = undefined;
  }
  return tDynamic(message.slice(0, i), options);
}

/** Common rules. */
export const rules = {
  required: { value: true, message: vmsg('shell:validation.required') },
  maxLength: (max: number) => ({ value: max, message: vmsg('shell:validation.maxLength', { max }) }),
  /** Trimmed text must not be empty. */
  notBlank: (v: unknown) => (typeof v === 'string' && v.trim() !== '') || vmsg('shell:validation.required'),
};
