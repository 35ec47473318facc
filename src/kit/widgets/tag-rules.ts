/**
 * Tag input rules (spec 5): at most 5 tags by default, each up to 20 characters; Enter adds the text
 * when it is not blank and the list is below the maximum; Backspace or Delete with the caret at the
 * start of the box removes the last tag. Pure; no React.
 */

export const TAG_DEFAULTS = { maxTags: 5, maxTagLength: 20 } as const;

export interface TagLimits {
  maxTags?: number;
  maxTagLength?: number;
}

/** Why a text was not added. */
export type TagRejection = 'blank' | 'max' | 'tooLong' | 'duplicate';

export type AddTagResult = { added: true; tags: string[] } | { added: false; tags: string[]; reason: TagRejection };

/**
 * Adds `text` (trimmed) to `tags` when the rules allow it.
 * @example addTag(['a'], ' b ') // { added: true, tags: ['a', 'b'] }
 */
export function addTag(tags: readonly string[], text: string, limits: TagLimits = {}): AddTagResult {
  const { maxTags = TAG_DEFAULTS.maxTags, maxTagLength = TAG_DEFAULTS.maxTagLength } = limits;
  const tag = text.trim();
  const same = [...tags];
  if (!tag) return { added: false, tags: same, reason: 'blank' };
  if (tags.length >= maxTags) return { added: false, tags: same, reason: 'max' };
  if ([...tag].length > maxTagLength) return { added: false, tags: same, reason: 'tooLong' };
  if (tags.includes(tag)) return { added: false, tags: same, reason: 'duplicate' };
  return { added: true, tags: [...tags, tag] };
}

/** Whether a key press removes the last tag: Backspace or Delete with the caret at the start, nothing selected. */
export function removesLastTag(key: string, selectionStart: number | null, selectionEnd: number | null): boolean {
  return (key === 'Backspace' || key === 'Delete') && selectionStart === 0 && selectionEnd === 0;
}

/** The list without its last tag. */
export const removeLastTag = (tags: readonly string[]) => tags.slice(0, -1);

/** The list without the tag at `index`. */
export const removeTagAt = (tags: readonly string[], index: number) => tags.filter((_, i) => i !== index);

/** Whether more tags may be added. */
export const canAddMore = (tags: readonly string[], limits: TagLimits = {}) => tags.length < (limits.maxTags ?? TAG_DEFAULTS.maxTags);
