import { z } from 'zod';

/**
 * UI metadata on zod schemas: how a field shows in a form (src/kit SchemaForm) and in a table
 * (src/kit SchemaTable). It rides on zod 4 metadata (`.meta()`, stored in `z.globalRegistry`), so the
 * same schema serves the form, the table, the server's validation and the OpenAPI document.
 *
 * Conventions:
 * - Every text is an i18n key, never a sentence: `label`, `placeholder`, `help`, `group`, `title`,
 *   option labels. A key may name its namespace (`'prompt:name'`); a bare key is looked up in the
 *   namespaces the screen gives the kit (`ns` prop), then by its first segment as a namespace
 *   (`'credential.identifier'` → `credential:identifier`), then in `kit` and `common`.
 * - Metadata written on a wrapper wins over the wrapped schema's (`name.optional().meta({...})`
 *   overrides `name`'s own); zod clones (`.optional()`, `.refine()`) inherit their parent's meta.
 * - `widget` names a built-in widget ({@link WIDGETS}) or a custom one the screen supplies
 *   (`widgets` / `renderWidget` of SchemaForm), e.g. `'variables'`, `'model-picker'`.
 * - Without `widget`, the kit picks one from the zod type: string → text, number → number,
 *   boolean → switch, enum → select, array of enum → multi-select, array of string → tags,
 *   anything else → json. A field called `id` without meta is `hidden`.
 * - Without `order`, fields keep the shape's order (after those that have one).
 *
 * This module imports nothing but zod (schemas/ rule).
 *
 * @example
 * const host = z.string().trim().min(1, REQUIRED).meta(ui({
 *   label: 'database.host', placeholder: 'database.hostPlaceholder', help: 'database.hostHelp',
 *   order: 3, group: 'database.groups.connection',
 *   visibleWhen: { field: 'type', notIn: ['sqlite'] },
 *   column: { order: 3, width: 180, sortable: true },
 * }));
 * getUiMeta(host.optional()).label; // 'database.host'
 */

/** Built-in widgets of the kit. */
export const WIDGETS = [
  'text',
  'textarea',
  'number',
  'switch',
  'select',
  'multi-select',
  'tags',
  'secret',
  'code',
  'json',
  'file',
  'icon',
  'person',
  'org',
  'datetime',
  'search',
  'hidden',
  /** Display only: a coloured badge per value (tables; a read-only badge in forms). */
  'status',
] as const;
export type BuiltinWidget = (typeof WIDGETS)[number];
/** A built-in widget, or the name of a custom one supplied by the screen. */
export type WidgetName = BuiltinWidget | (string & {});

export const isBuiltinWidget = (w: string | undefined): w is BuiltinWidget => !!w && (WIDGETS as readonly string[]).includes(w);

/** One choice of a select; `label` is an i18n key. */
export interface UiOption {
  value: string;
  label: string;
  disabled?: boolean;
}

/**
 * Show the field only when another field of the same object matches. One condition, or an array
 * that must all hold. `equals` compares with `===`; `in` / `notIn` test membership; `notEmpty`
 * wants a value other than undefined, null, '' and [].
 */
export interface VisibleCondition {
  field: string;
  equals?: unknown;
  in?: readonly unknown[];
  notIn?: readonly unknown[];
  notEmpty?: boolean;
}
export type VisibleWhen = VisibleCondition | readonly VisibleCondition[];

/** Badge colours a `status` value may take (the Badge primitive's variants). */
export type StatusTone = 'neutral' | 'primary' | 'success' | 'warning' | 'danger' | 'info';

/** How a field shows as a table column. `column: false` leaves it out. */
export interface ColumnMeta {
  /** Position among the columns (ascending; columns without it follow, in shape order). */
  order?: number;
  /** Fixed width in px (otherwise the column shares what is left). */
  width?: number;
  minWidth?: number;
  /** The column header may sort (the API must support it; sorting is server-side). */
  sortable?: boolean;
  align?: 'left' | 'center' | 'right';
  /** Header key when it differs from the form label. */
  label?: string;
  /**
   * This field is not a column of its own: its value is the tooltip of the named column's cells
   * (e.g. a status message shown on hover over the status badge).
   */
  tooltipOf?: string;
}

/** A titled section of a form (object-level meta `groups`, optional: a field's `group` is enough). */
export interface UiGroup {
  /** The value fields give as `group`. */
  id: string;
  /** i18n key of the section title (default: the id). */
  title?: string;
  /** i18n key of a line under the title. */
  help?: string;
  order?: number;
}

/** The UI metadata of one field (or of an object: `title`, `groups`). All texts are i18n keys. */
export interface UiMeta {
  label?: string;
  placeholder?: string;
  help?: string;
  widget?: WidgetName;
  /** Form order (ascending). */
  order?: number;
  /** Section of the form: a group id (see {@link UiGroup}) or directly the title's i18n key. */
  group?: string;
  /** Object level: the entity's name (tables, dialogs). */
  title?: string;
  /** Object level: sections of the form, in order. */
  groups?: readonly UiGroup[];
  /** Choices of a select (otherwise taken from a z.enum / literal union). */
  options?: readonly UiOption[];
  /**
   * Labels of the enum's values: a map value → i18n key, or a key prefix (`'database.types'` gives
   * `database.types.mysql`). Without it a value shows as it is.
   */
  optionLabels?: Readonly<Record<string, string>> | string;
  /** Status badge colour per value (`status` widget). */
  tones?: Readonly<Record<string, StatusTone>>;
  visibleWhen?: VisibleWhen;
  readOnly?: boolean;
  disabled?: boolean;
  /** Table column hints; `false`: not a column. */
  column?: ColumnMeta | false;
  /** textarea rows. */
  rows?: number;
  /** code widget language (monaco id: 'javascript', 'python', 'json', 'sql', …). */
  language?: string;
  /** tags widget limits (spec 5 defaults: 5 tags of 20 characters). */
  maxTags?: number;
  maxTagLength?: number;
  /** file widget: accepted extensions ('.pdf'), count and size limits (default: the app config). */
  accept?: readonly string[];
  maxCount?: number;
  maxMb?: number;
  /** search widget: debounce in ms (default 500). */
  debounceMs?: number;
}

// Every `.meta({...})` in the project is checked against UiMeta (zod's GlobalMeta is open for this).
// (`widget` is a plain string there: zod's meta typing cannot carry an open string union.)
declare module 'zod/v4/core' {
  interface GlobalMeta extends Omit<UiMeta, 'widget'> {
    widget?: string;
  }
}

/**
 * Types a metadata object (handy where the meta is built apart from `.meta()`).
 * @example z.string().meta(ui({ label: 'credential.sk', widget: 'secret' }))
 */
export function ui<M extends UiMeta>(meta: M): M {
  return meta;
}

// ------------------------------------------------------------------------------------------------
// Reading schemas (zod 4 internals: `_zod.def`), for the kit

type AnySchema = z.core.$ZodType;

interface Def {
  type: string;
  innerType?: AnySchema;
  in?: AnySchema;
  out?: AnySchema;
  getter?: () => AnySchema;
  defaultValue?: unknown;
  element?: AnySchema;
  entries?: Record<string, string | number>;
  values?: readonly unknown[];
  options?: readonly AnySchema[];
  shape?: Record<string, AnySchema>;
  checks?: readonly { _zod: { def: Record<string, unknown> } }[];
  format?: string;
  minimum?: number;
  maximum?: number;
}

export const defOf = (s: AnySchema): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

const metaOf = (s: AnySchema): UiMeta | undefined => z.globalRegistry.get(s) as UiMeta | undefined;

/** What is under the wrappers of a field's schema. */
export interface Unwrapped {
  /** The innermost schema (a string, number, enum, array, object …). */
  schema: AnySchema;
  optional: boolean;
  nullable: boolean;
  hasDefault: boolean;
  defaultValue: unknown;
  readOnly: boolean;
  /** Metadata merged from the outermost wrapper inwards (outer wins). */
  meta: UiMeta;
}

/**
 * Peels optional, nullable, default, prefault, catch, readonly, nonoptional, lazy and pipe (input
 * side: a transform's input) wrappers, collecting what they say and their metadata.
 */
export function unwrap(schema: AnySchema): Unwrapped {
  const metas: UiMeta[] = [];
  const out: Unwrapped = { schema, optional: false, nullable: false, hasDefault: false, defaultValue: undefined, readOnly: false, meta: {} };
  let s: AnySchema | undefined = schema;
  for (let guard = 0; s && guard < 32; guard++) {
    const m = metaOf(s);
    if (m) metas.push(m);
    const d = defOf(s);
    out.schema = s;
    let next: AnySchema | undefined;
    switch (d.type) {
      case 'optional':
        out.optional = true;
        next = d.innerType;
        break;
      case 'nullable':
        out.nullable = true;
        next = d.innerType;
        break;
      case 'default':
      case 'prefault':
        if (!out.hasDefault) {
          out.hasDefault = true;
          out.defaultValue = cloneJson(d.defaultValue);
        }
        next = d.innerType;
        break;
      case 'readonly':
        out.readOnly = true;
        next = d.innerType;
        break;
      case 'catch':
      case 'nonoptional':
        next = d.innerType;
        break;
      case 'lazy':
        next = d.getter?.();
        break;
      case 'pipe':
        // A transform has nothing to show: read the input side (`z.string().transform(f)` is a string).
        next = d.in && defOf(d.in).type !== 'transform' ? d.in : d.out;
        break;
      default:
        next = undefined;
    }
    s = next;
  }
  // Outer metadata wins: merge innermost first.
  out.meta = Object.assign({}, ...metas.reverse());
  return out;
}

function cloneJson(v: unknown): unknown {
  if (v === undefined || v === null || typeof v !== 'object') return v;
  try {
    return structuredClone(v);
  } catch {
    return v;
  }
}

/**
 * The UI metadata of a schema, merged through its wrappers (outer wins).
 * @example getUiMeta(CredentialCreateBody.shape.sk).widget // 'secret'
 */
export function getUiMeta(schema: AnySchema): UiMeta {
  return unwrap(schema).meta;
}

/** The object schema under wrappers, or null when it is not an object. */
export function objectShape(schema: AnySchema): Record<string, AnySchema> | null {
  const inner = unwrap(schema).schema;
  const d = defOf(inner);
  return d.type === 'object' && d.shape ? d.shape : null;
}

/** Values of a z.enum, a z.literal or a union of literals (and enums); null for anything else. */
export function enumValues(schema: AnySchema): string[] | null {
  const d = defOf(unwrap(schema).schema);
  if (d.type === 'enum' && d.entries) return Object.values(d.entries).map(String);
  if (d.type === 'literal' && d.values) return d.values.map(String);
  if (d.type === 'union' && d.options) {
    const all: string[] = [];
    for (const o of d.options) {
      const v = enumValues(o);
      if (!v) return null;
      all.push(...v);
    }
    return all;
  }
  return null;
}

/** Options of a select: `meta.options`, or the enum's values labelled by `optionLabels`. */
export function optionsOf(schema: AnySchema, meta: UiMeta = getUiMeta(schema)): UiOption[] | null {
  if (meta.options) return [...meta.options];
  const values = enumValues(schema);
  if (!values) return null;
  return values.filter((v) => v !== '').map((value) => ({ value, label: optionLabel(meta, value) }));
}

/** The i18n key (or the raw value) an enum value shows as. */
export function optionLabel(meta: UiMeta, value: string): string {
  const found = meta.options?.find((o) => o.value === value);
  if (found) return found.label;
  const labels = meta.optionLabels;
  if (typeof labels === 'string') return `${labels}.${value}`;
  if (labels && value in labels) return labels[value];
  return value;
}

/** Length, size and format checks of a string / number / array schema. */
export interface SchemaChecks {
  minLength?: number;
  maxLength?: number;
  min?: number;
  max?: number;
  int?: boolean;
  format?: string;
}

export function checksOf(schema: AnySchema): SchemaChecks {
  const inner = unwrap(schema).schema;
  const d = defOf(inner);
  const out: SchemaChecks = {};
  if (d.format) out.format = d.format;
  if (d.format === 'safeint' || d.format === 'int32' || d.format === 'uint32') out.int = true;
  for (const c of d.checks ?? []) {
    const cd = c._zod.def;
    const num = (k: string) => (typeof cd[k] === 'number' ? (cd[k] as number) : undefined);
    switch (cd.check) {
      case 'min_length':
        out.minLength = Math.max(out.minLength ?? 0, num('minimum') ?? 0);
        break;
      case 'max_length':
        out.maxLength = Math.min(out.maxLength ?? Infinity, num('maximum') ?? Infinity);
        break;
      case 'length_equals':
        out.minLength = out.maxLength = num('length');
        break;
      case 'greater_than': {
        const v = num('value');
        if (v !== undefined) out.min = cd.inclusive ? v : out.int ? v + 1 : v;
        break;
      }
      case 'less_than': {
        const v = num('value');
        if (v !== undefined) out.max = cd.inclusive ? v : out.int ? v - 1 : v;
        break;
      }
      case 'number_format':
        out.int = cd.format === 'safeint' || cd.format === 'int32' || cd.format === 'uint32' || out.int;
        break;
      case 'string_format':
        if (typeof cd.format === 'string') out.format = cd.format;
        break;
    }
  }
  return out;
}

/** Whether `value` counts as empty for `notEmpty` and required checks. */
export const isEmptyValue = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/**
 * Whether a field with `visibleWhen` shows, given the object's current values.
 * @example isVisible({ field: 'type', in: ['oracle'] }, { type: 'oracle' }) // true
 */
export function isVisible(when: VisibleWhen | undefined, values: Record<string, unknown>): boolean {
  if (!when) return true;
  const list = Array.isArray(when) ? (when as readonly VisibleCondition[]) : [when as VisibleCondition];
  return list.every((c) => {
    const v = values?.[c.field];
    if ('equals' in c && v !== c.equals) return false;
    if (c.in && !c.in.includes(v)) return false;
    if (c.notIn && c.notIn.includes(v)) return false;
    if (c.notEmpty && isEmptyValue(v)) return false;
    return true;
  });
}
