/**
 * Segmentation settings of the slice-method page (spec 5, 9): general or parent-child mode, maximum
 * segment length (default 800) and overlap (default 0), both required; separators picked from the
 * spec's set (newline, two newlines, Chinese and English period, exclamation and question marks) plus
 * custom identifiers, which must not be a system keyword. Pure; no React.
 */
import { z } from 'zod';

export const SEGMENT_MAX_LENGTH_DEFAULT = 800;
export const SEGMENT_OVERLAP_DEFAULT = 0;
export const SEGMENT_MAX_LENGTH_LIMIT = 4000;
export const PARENT_MAX_LENGTH_DEFAULT = 2000;
export const CUSTOM_SEPARATOR_MAX = 10;

/** Spec 9 separators: value and i18n key (namespace knowledge). */
export const SEPARATORS = [
  { value: '\n', label: 'slice.sep.newline' },
  { value: '\n\n', label: 'slice.sep.twoNewlines' },
  { value: '。', label: 'slice.sep.periodZh' },
  { value: '.', label: 'slice.sep.periodEn' },
  { value: '！', label: 'slice.sep.exclamationZh' },
  { value: '!', label: 'slice.sep.exclamationEn' },
  { value: '？', label: 'slice.sep.questionZh' },
  { value: '?', label: 'slice.sep.questionEn' },
] as const;

/**
 * Words a custom identifier may not be: the escape names the system gives its own separators and
 * the placeholders it writes into segments.
 */
export const SYSTEM_KEYWORDS = ['\\n', '\\n\\n', '\\t', '\\r', 'newline', 'null', 'undefined', '{{', '}}'] as const;

/** A custom identifier as typed ('\n' typed as backslash-n means a newline) → the separator text. */
export const unescapeSeparator = (s: string) => s.replace(/\\n/g, '\n').replace(/\\t/g, '\t');

/** Why a custom identifier is refused (an i18n key of namespace knowledge), or null. */
export function checkIdentifier(raw: string, existing: readonly string[] = []): string | null {
  const v = raw.trim();
  if (!v) return 'slice.identifierEmpty';
  if (v.length > CUSTOM_SEPARATOR_MAX) return 'slice.identifierTooLong';
  if ((SYSTEM_KEYWORDS as readonly string[]).includes(v.toLowerCase())) return 'slice.identifierKeyword';
  const sep = unescapeSeparator(v);
  if (SEPARATORS.some((s) => s.value === sep) || existing.includes(sep)) return 'slice.identifierDuplicate';
  return null;
}

const REQUIRED = 'This form field is required!';
const int = (min: number, max: number) =>
  z
    .number({ error: REQUIRED })
    .int()
    .min(min, { message: `must be at least ${min}` })
    .max(max, { message: `must be at most ${max}` });

/** The form's values; the server body is built by {@link toProcessRule}. */
export const SegmentationForm = z
  .object({
    mode: z.enum(['general', 'parent_child']),
    max_length: int(50, SEGMENT_MAX_LENGTH_LIMIT),
    overlap: int(0, SEGMENT_MAX_LENGTH_LIMIT),
    /** Parent-child: the parent chunk's maximum length. */
    parent_max_length: int(100, SEGMENT_MAX_LENGTH_LIMIT * 4),
    separators: z.array(z.string()).min(1, { message: 'slice.separatorsRequired' }),
    custom: z.array(z.string()),
    remove_extra_spaces: z.boolean(),
    remove_urls_emails: z.boolean(),
  })
  .superRefine((v, ctx) => {
    if (v.overlap >= v.max_length) ctx.addIssue({ code: 'custom', path: ['overlap'], message: 'slice.overlapTooLarge' });
    if (v.mode === 'parent_child' && v.parent_max_length <= v.max_length) ctx.addIssue({ code: 'custom', path: ['parent_max_length'], message: 'slice.parentTooSmall' });
    v.custom.forEach((c, i) => {
      const others = v.custom.slice(0, i).map((c) => unescapeSeparator(c.trim()));
      const problem = checkIdentifier(c, others);
      if (problem) ctx.addIssue({ code: 'custom', path: ['custom', i], message: problem });
    });
  });
export type SegmentationForm = z.infer<typeof SegmentationForm>;

export const SEGMENTATION_DEFAULTS: SegmentationForm = {
  mode: 'general',
  max_length: SEGMENT_MAX_LENGTH_DEFAULT,
  overlap: SEGMENT_OVERLAP_DEFAULT,
  parent_max_length: PARENT_MAX_LENGTH_DEFAULT,
  separators: ['\n\n', '\n'],
  custom: [],
  remove_extra_spaces: true,
  remove_urls_emails: false,
};

/** The separators the server gets: the picked presets, then the custom identifiers, no repeats. */
export function separatorsOf(v: Pick<SegmentationForm, 'separators' | 'custom'>): string[] {
  return [...new Set([...v.separators, ...v.custom.map((c) => unescapeSeparator(c.trim())).filter(Boolean)])];
}

/** The first problem per field (path joined by '.'), as i18n keys or messages. */
export function segmentationErrors(v: unknown): Record<string, string> {
  const r = SegmentationForm.safeParse(v);
  if (r.success) return {};
  const out: Record<string, string> = {};
  for (const issue of r.error.issues) {
    const key = issue.path.join('.');
    if (!(key in out)) out[key] = issue.message;
  }
  return out;
}
