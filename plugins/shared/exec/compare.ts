import { toText as stringify } from './text';
import type { VariableReader } from '../../../src/plugin-sdk';
import { testsFiles, type ComparisonOperator, type Condition, type FileCondition } from '../conditions';
import { fileProperty } from './files';

/**
 * Evaluates the conditions of if-else cases and loop break conditions. Comparisons follow the
 * value's type: strings compare as text, arrays by their elements, numbers (and numeric text) as
 * numbers; the compared value is a template and may hold `{{#…#}}` references.
 */

const isEmpty = (v: unknown) =>
  v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && !Array.isArray(v) && Object.keys(v as object).length === 0);

/** A number from a number or numeric text; undefined otherwise. */
function toNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v);
    return Number.isFinite(n) ? n : undefined;
  }
  if (typeof v === 'boolean') return v ? 1 : 0;
  return undefined;
}

/** The list a value names: a JSON array, or items separated by commas. */
function toList(expected: string): string[] {
  const t = expected.trim();
  if (t.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(t);
      if (Array.isArray(parsed)) return parsed.map((x) => stringify(x));
    } catch {
      // Not JSON: read it as a comma list.
    }
  }
  return t
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Whether two values are equal the way a user means it ("3" is 3, "true" is true). */
function same(actual: unknown, expected: string): boolean {
  if (typeof actual === 'number') return toNumber(expected) === actual;
  return stringify(actual) === expected;
}

/** One comparison of a value with the rendered expected text. */
export function compare(actual: unknown, operator: ComparisonOperator, expected: string): boolean {
  switch (operator) {
    case 'contains':
    case 'not contains': {
      const has = Array.isArray(actual) ? actual.some((x) => same(x, expected)) : typeof actual === 'string' ? actual.includes(expected) : false;
      return operator === 'contains' ? has : !has;
    }
    case 'start with':
      return typeof actual === 'string' && actual.startsWith(expected);
    case 'end with':
      return typeof actual === 'string' && actual.endsWith(expected);
    case 'is':
      return actual !== undefined && actual !== null && same(actual, expected);
    case 'is not':
      return !(actual !== undefined && actual !== null && same(actual, expected));
    case 'empty':
      return isEmpty(actual);
    case 'not empty':
      return !isEmpty(actual);
    case '=':
    case '≠':
    case '>':
    case '<':
    case '≥':
    case '≤': {
      const a = Array.isArray(actual) ? actual.length : toNumber(actual);
      const b = toNumber(expected);
      if (a === undefined || b === undefined) return operator === '≠';
      return operator === '=' ? a === b : operator === '≠' ? a !== b : operator === '>' ? a > b : operator === '<' ? a < b : operator === '≥' ? a >= b : a <= b;
    }
    case 'in':
    case 'not in': {
      const inList = actual !== undefined && actual !== null && toList(expected).some((x) => same(actual, x));
      return operator === 'in' ? inList : !inList;
    }
    case 'all of': {
      if (!Array.isArray(actual)) return false;
      const want = toList(expected);
      return want.length > 0 && want.every((w) => actual.some((x) => same(x, w)));
    }
    case 'null':
      return actual === null || actual === undefined;
    case 'not null':
      return actual !== null && actual !== undefined;
    case 'exists':
      return actual !== undefined;
    case 'not exists':
      return actual === undefined;
    default:
      return false;
  }
}

/** An extension with its dot and in lower case, as `fileProperty` gives it ("md" and ".MD" are ".md"). */
const dotted = (ext: string) => (ext && !ext.startsWith('.') ? `.${ext}` : ext).toLowerCase();

/**
 * Whether a list of files holds a file test as Dify's sub-conditions read: each test is tried on every
 * file and holds when it holds for one of them (for a "not" operator: for all of them); the tests are
 * joined by and/or.
 */
function filesMatch(files: unknown[], tests: readonly FileCondition[], logical: 'and' | 'or', variables: VariableReader): boolean {
  const one = (t: FileCondition) => {
    const expected = t.key === 'extension' ? dotted(variables.render(t.value)) : variables.render(t.value);
    const results = files.map((f) => compare(fileProperty(f, t.key), t.operator, expected));
    return t.operator.includes('not') ? results.every(Boolean) : results.some(Boolean);
  };
  return logical === 'and' ? tests.every(one) : tests.some(one);
}

/** A list of conditions joined by and/or; an empty list holds for `and` and fails for `or`. */
export function evaluateConditions(conditions: readonly Condition[], logical: 'and' | 'or', variables: VariableReader): boolean {
  const test = (c: Condition) => {
    const actual = variables.get(c.selector);
    if (testsFiles(c)) {
      const files = Array.isArray(actual) ? actual : [];
      const has = files.length > 0 && filesMatch(files, c.fileConditions!.conditions, c.fileConditions!.logicalOperator, variables);
      return c.operator === 'contains' ? has : !has;
    }
    return compare(actual, c.operator, variables.render(c.value));
  };
  return logical === 'and' ? conditions.every(test) : conditions.some(test);
}
