/**
 * Guards: the answers of the calls a first load makes (/config.json, the sign-in tenants, the signed-in
 * user, the project spaces), checked without zod. zod and the schemas are ~75 KB on the wire, more than
 * a quarter of the login page's and the console home's 250 KB budget (issue 28), and they used to load
 * with those first calls.
 *
 * A guard is not a second, hand-written validation: its schema is the JSON Schema that zod itself writes
 * for a schema of schemas/ (`z.toJSONSchema`, generated into ./guard-schemas.ts by
 * `npx tsx scripts/client-guards.ts`), and guard.test.ts checks that file is current and that each guard
 * answers what zod's `safeParse` answers: the same data (defaults filled, unknown keys dropped) for a
 * good answer, a failure for a bad one, which the request layer turns into CLIENT-BAD-RESPONSE.
 * The generator refuses a schema with parts JSON Schema cannot say (refinements, transforms).
 *
 * @example
 * const appConfig = guard<AppConfig>(answerSchemas.appConfig);
 * export const getAppConfig = () => call(appConfig, commonEndpoints.config);
 */

/** The part of JSON Schema (draft 2020-12, as zod 4 writes it) that guards read. */
export interface GuardSchema {
  type?: 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'object' | 'array';
  enum?: readonly unknown[];
  const?: unknown;
  anyOf?: readonly GuardSchema[];
  oneOf?: readonly GuardSchema[];
  default?: unknown;
  properties?: Readonly<Record<string, GuardSchema>>;
  required?: readonly string[];
  additionalProperties?: GuardSchema | boolean;
  items?: GuardSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
}

/** One mismatch, shaped like a zod issue (the request layer puts them in the ApiError's data). */
export interface GuardIssue {
  code: 'invalid_type' | 'invalid_value' | 'too_small' | 'too_big' | 'invalid_format' | 'invalid_union';
  path: (string | number)[];
  message: string;
}

export type GuardResult<T> = { success: true; data: T } | { success: false; error: { issues: GuardIssue[] } };

/** A checked answer type `T`: anything with zod's `safeParse` is accepted by the request layer. */
export interface Guard<T> {
  safeParse(data: unknown): GuardResult<T>;
}

const patterns = new Map<string, RegExp>();
const regex = (p: string) => patterns.get(p) ?? patterns.set(p, new RegExp(p)).get(p)!;

const typeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

function sameValue(a: unknown, b: unknown): boolean {
  return a === b || (typeof a === 'object' && a !== null && JSON.stringify(a) === JSON.stringify(b));
}

/** Checks `value` against `schema`; answers the value as zod's parse would, or records issues. */
function check(schema: GuardSchema, value: unknown, path: (string | number)[], issues: GuardIssue[]): unknown {
  const fail = (code: GuardIssue['code'], message: string) => {
    issues.push({ code, path, message });
    return undefined;
  };
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) {
    for (const alt of alternatives) {
      const tried: GuardIssue[] = [];
      const out = check(alt, value, path, tried);
      if (tried.length === 0) return out;
    }
    return fail('invalid_union', 'Invalid input');
  }
  if ('const' in schema && !sameValue(schema.const, value)) return fail('invalid_value', `Expected ${JSON.stringify(schema.const)}`);
  if (schema.enum && !schema.enum.some((e) => sameValue(e, value))) return fail('invalid_value', `Expected one of ${JSON.stringify(schema.enum)}`);
  const actual = typeOf(value);
  switch (schema.type) {
    case undefined:
      return value;
    case 'integer':
    case 'number': {
      if (actual !== 'number' || !Number.isFinite(value)) return fail('invalid_type', `Expected ${schema.type}, received ${actual}`);
      const n = value as number;
      if (schema.type === 'integer' && !Number.isInteger(n)) return fail('invalid_type', 'Expected integer, received number');
      if (schema.minimum !== undefined && n < schema.minimum) return fail('too_small', `Expected >= ${schema.minimum}`);
      if (schema.exclusiveMinimum !== undefined && n <= schema.exclusiveMinimum) return fail('too_small', `Expected > ${schema.exclusiveMinimum}`);
      if (schema.maximum !== undefined && n > schema.maximum) return fail('too_big', `Expected <= ${schema.maximum}`);
      if (schema.exclusiveMaximum !== undefined && n >= schema.exclusiveMaximum) return fail('too_big', `Expected < ${schema.exclusiveMaximum}`);
      return n;
    }
    case 'string': {
      if (actual !== 'string') return fail('invalid_type', `Expected string, received ${actual}`);
      const s = value as string;
      if (schema.minLength !== undefined && s.length < schema.minLength) return fail('too_small', `Expected at least ${schema.minLength} characters`);
      if (schema.maxLength !== undefined && s.length > schema.maxLength) return fail('too_big', `Expected at most ${schema.maxLength} characters`);
      if (schema.pattern !== undefined && !regex(schema.pattern).test(s)) return fail('invalid_format', `Invalid ${schema.format ?? 'string'}`);
      return s;
    }
    case 'array': {
      if (actual !== 'array') return fail('invalid_type', `Expected array, received ${actual}`);
      const list = value as unknown[];
      if (schema.minItems !== undefined && list.length < schema.minItems) return fail('too_small', `Expected at least ${schema.minItems} items`);
      if (schema.maxItems !== undefined && list.length > schema.maxItems) return fail('too_big', `Expected at most ${schema.maxItems} items`);
      return schema.items ? Array.from(list, (item, i) => check(schema.items!, item, [...path, i], issues)) : list;
    }
    case 'object': {
      if (actual !== 'object') return fail('invalid_type', `Expected object, received ${actual}`);
      const input = value as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      const known = schema.properties ?? {};
      for (const [key, prop] of Object.entries(known)) {
        if (input[key] !== undefined) out[key] = check(prop, input[key], [...path, key], issues);
        else if ('default' in prop) out[key] = structuredClone(prop.default);
        else if (schema.required?.includes(key)) issues.push({ code: 'invalid_type', path: [...path, key], message: `Expected ${prop.type ?? 'a value'}, received undefined` });
      }
      // As zod's z.object: keys the schema does not name are dropped, unless it says what they hold.
      const extra = schema.additionalProperties;
      if (extra !== undefined && extra !== false) {
        for (const [key, v] of Object.entries(input)) if (!(key in known)) out[key] = extra === true ? v : check(extra, v, [...path, key], issues);
      }
      return out;
    }
    default:
      if (actual !== schema.type) return fail('invalid_type', `Expected ${schema.type}, received ${actual}`);
      return value;
  }
}

/** A guard for answers of type `T` from a schema of ./guard-schemas.ts. */
export function guard<T>(schema: GuardSchema): Guard<T> {
  return {
    safeParse(data) {
      const issues: GuardIssue[] = [];
      const out = check(schema, data, [], issues);
      return issues.length === 0 ? { success: true, data: out as T } : { success: false, error: { issues } };
    },
  };
}
