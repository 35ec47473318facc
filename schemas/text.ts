import type { FieldIssue } from './errors';

/**
 * The rule every string of every request keeps (query, path, headers, JSON bodies at any depth and
 * their keys, multipart fields and file names): no NUL character (U+0000) and no lone UTF-16
 * surrogate (half of a pair without the other half: not Unicode text). PostgreSQL refuses NUL in
 * text and JSON, and a lone surrogate reaches the database as U+FFFD, so a row would be stored under
 * another value than the one asked for. The server checks it once for every route before any
 * handler runs (src/server/http/input-rule.ts); a request that breaks it answers VALIDATION-1000.
 */

// Without the `u` flag the pattern sees UTF-16 code units, so a lone half can be matched.
const BAD = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const BAD_ALL = new RegExp(BAD.source, 'g');

export const TEXT_RULE_MESSAGES = {
  nul: 'must not contain the NUL character (U+0000)',
  surrogate: 'must be valid Unicode text (it holds a lone UTF-16 surrogate)',
} as const;

/** What is wrong with the string under the rule, or undefined. */
export function textProblem(s: string): string | undefined {
  const m = BAD.exec(s);
  if (!m) return undefined;
  return m[0] === '\u0000' ? TEXT_RULE_MESSAGES.nul : TEXT_RULE_MESSAGES.surrogate;
}

/** A path segment as the answer shows it: the offending characters written as `\uXXXX`. */
const shown = (key: string) => key.replace(BAD_ALL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * The first string (or object key) in `value` that breaks the rule, as a field issue whose path
 * starts with `where` (`body`, `querystring`, ...) and names the keys and indexes down to it.
 * Walks without recursion, so a deeply nested body cannot overflow the stack.
 */
export function findTextProblem(value: unknown, where: string): FieldIssue | undefined {
  const stack: { v: unknown; path: string }[] = [{ v: value, path: where }];
  while (stack.length) {
    const { v, path } = stack.pop()!;
    if (typeof v === 'string') {
      const problem = textProblem(v);
      if (problem) return { path, message: problem };
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], path: `${path}/${i}` });
    } else if (v !== null && typeof v === 'object' && !ArrayBuffer.isView(v)) {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, x] = entries[i];
        const problem = textProblem(k);
        if (problem) return { path: `${path}/${shown(k)}`, message: `key ${problem}` };
        stack.push({ v: x, path: `${path}/${k}` });
      }
    }
  }
  return undefined;
}
