/**
 * A word-level diff of two texts (the agent builder shows an optimized prompt against the old one):
 * runs of equal, removed and added text, whitespace kept with the word before it. The longest
 * common subsequence of the words; past LCS_CELLS it falls back to lines, so a long prompt stays
 * fast in the browser.
 */
export interface DiffPart {
  type: 'same' | 'removed' | 'added';
  text: string;
}

const LCS_CELLS = 4_000_000;

const words = (text: string) => text.match(/\s+|\S+/g) ?? [];
const lines = (text: string) => text.match(/[^\n]*\n|[^\n]+$/g) ?? [];

/**
 * @example wordDiff('Be nice.', 'Be very nice.') // [{same 'Be '}, {added 'very '}, {same 'nice.'}]
 */
export function wordDiff(before: string, after: string): DiffPart[] {
  let a = words(before);
  let b = words(after);
  if (a.length * b.length > LCS_CELLS) {
    a = lines(before);
    b = lines(after);
  }
  if (a.length * b.length > LCS_CELLS) return [...(before ? [{ type: 'removed' as const, text: before }] : []), ...(after ? [{ type: 'added' as const, text: after }] : [])];
  // lcs[i][j]: the common length of a[i..] and b[j..], in one flat array.
  const w = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * w);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * w + j] = a[i] === b[j] ? lcs[(i + 1) * w + j + 1] + 1 : Math.max(lcs[(i + 1) * w + j], lcs[i * w + j + 1]);
    }
  }
  const out: DiffPart[] = [];
  const push = (type: DiffPart['type'], text: string) => {
    const last = out.at(-1);
    if (last?.type === type) last.text += text;
    else out.push({ type, text });
  };
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      push('same', a[i]);
      i++;
      j++;
    } else if (lcs[(i + 1) * w + j] >= lcs[i * w + j + 1]) push('removed', a[i++]);
    else push('added', b[j++]);
  }
  while (i < a.length) push('removed', a[i++]);
  while (j < b.length) push('added', b[j++]);
  return out;
}
