export type ClassValue = string | number | false | null | undefined;

/** Joins class names, dropping falsy values. Put the caller's `className` last so it wins. */
export function cn(...classes: ClassValue[]): string {
  let out = '';
  for (const c of classes) {
    if (c) out = out ? `${out} ${c}` : String(c);
  }
  return out;
}
