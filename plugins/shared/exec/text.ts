/**
 * How a value reads as text in a prompt, a query or a tool result: strings as they are, nothing as
 * '', the rest as JSON (the same rule as `{{#…#}}` references in templates).
 */
export function toText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}
