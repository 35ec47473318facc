/**
 * Schema walking, shared by SchemaForm and SchemaTable: a zod object schema (and its UI metadata,
 * schemas/ui.ts) → one plain descriptor per field. Pure; no React.
 */
import type { z } from 'zod';
import {
  checksOf,
  defOf,
  enumValues,
  isBuiltinWidget,
  objectShape,
  optionsOf,
  unwrap,
  type SchemaChecks,
  type UiMeta,
  type UiOption,
  type VisibleWhen,
  type WidgetName,
} from '../../../schemas/ui';

type AnySchema = z.core.$ZodType;

/** What a field's value is, read from its innermost zod type. */
export type FieldKind =
  | 'string'
  | 'number'
  | 'boolean'
  | 'enum'
  | 'date'
  | 'array'
  | 'object'
  | 'record'
  | 'unknown'
  | 'never';

export interface FieldDescriptor {
  /** Key in the object. */
  name: string;
  kind: FieldKind;
  /** For arrays: the element's kind. */
  itemKind?: FieldKind;
  widget: WidgetName;
  /** i18n keys (undefined when the schema has none). */
  label?: string;
  placeholder?: string;
  help?: string;
  group?: string;
  order?: number;
  /** Index in the shape (tie-breaker after `order`). */
  index: number;
  /** The form shows an asterisk: a value must be given. */
  required: boolean;
  optional: boolean;
  nullable: boolean;
  hasDefault: boolean;
  /** The schema's default (`.default(x)`), or undefined. */
  defaultValue: unknown;
  readOnly: boolean;
  disabled: boolean;
  visibleWhen?: VisibleWhen;
  /** Select choices (labels are i18n keys or raw values). */
  options?: UiOption[];
  checks: SchemaChecks;
  /** For arrays: the element's checks (a tag's maximum length). */
  itemChecks?: SchemaChecks;
  meta: UiMeta;
  /** The field's schema as written (with wrappers). */
  schema: AnySchema;
}

function kindOf(s: AnySchema): FieldKind {
  const t = defOf(s).type;
  switch (t) {
    case 'string':
    case 'template_literal':
      return 'string';
    case 'number':
    case 'bigint':
    case 'int':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'enum':
    case 'literal':
      return 'enum';
    case 'date':
      return 'date';
    case 'array':
    case 'set':
    case 'tuple':
      return 'array';
    case 'object':
      return 'object';
    case 'record':
    case 'map':
      return 'record';
    case 'union':
      return enumValues(s) ? 'enum' : 'unknown';
    case 'undefined':
    case 'never':
    case 'void':
      return 'never';
    default:
      return 'unknown';
  }
}

/** The widget a field gets when its metadata names none. */
export function defaultWidget(kind: FieldKind, itemKind?: FieldKind): WidgetName {
  switch (kind) {
    case 'string':
      return 'text';
    case 'number':
      return 'number';
    case 'boolean':
      return 'switch';
    case 'enum':
      return 'select';
    case 'date':
      return 'datetime';
    case 'array':
      return itemKind === 'enum' ? 'multi-select' : itemKind === 'string' ? 'tags' : 'json';
    default:
      return 'json';
  }
}

/** A value the empty form starts with, per widget (controlled inputs never get undefined). */
export function emptyValue(d: Pick<FieldDescriptor, 'widget' | 'kind' | 'optional' | 'nullable'>): unknown {
  switch (d.widget) {
    case 'multi-select':
    case 'tags':
    case 'file':
      return [];
    case 'switch':
      return false;
    case 'text':
    case 'textarea':
    case 'secret':
    case 'code':
    case 'search':
      return d.kind === 'string' ? '' : undefined;
    case 'json':
      return d.kind === 'string' ? '' : undefined;
    default:
      return undefined;
  }
}

/** Describes one field. */
export function describeField(name: string, schema: AnySchema, index = 0): FieldDescriptor {
  const u = unwrap(schema);
  const meta = u.meta;
  const kind = kindOf(u.schema);
  let itemKind: FieldKind | undefined;
  let options: UiOption[] | undefined;
  let itemChecks: SchemaChecks | undefined;
  if (kind === 'array') {
    const el = defOf(u.schema).element;
    if (el) {
      const inner = unwrap(el).schema;
      itemKind = kindOf(inner);
      itemChecks = checksOf(inner);
      if (itemKind === 'enum') options = optionsOf(inner, { ...unwrap(el).meta, ...meta }) ?? undefined;
    }
  } else {
    options = optionsOf(u.schema, meta) ?? undefined;
  }
  const checks = checksOf(u.schema);
  const widget: WidgetName = meta.widget ?? (name === 'id' ? 'hidden' : defaultWidget(kind, itemKind));
  const needsValue = !u.optional && !u.hasDefault && kind !== 'never';
  // Strings and arrays are "required" only when they must not be empty (min length ≥ 1).
  const required =
    needsValue &&
    widget !== 'hidden' &&
    kind !== 'boolean' &&
    (kind === 'string' || kind === 'array' ? (checks.minLength ?? 0) >= 1 : kind !== 'unknown');
  return {
    name,
    kind,
    itemKind,
    widget,
    label: meta.label,
    placeholder: meta.placeholder,
    help: meta.help,
    group: meta.group,
    order: meta.order,
    index,
    required,
    optional: u.optional,
    nullable: u.nullable,
    hasDefault: u.hasDefault,
    defaultValue: u.defaultValue,
    readOnly: !!meta.readOnly || u.readOnly,
    disabled: !!meta.disabled,
    visibleWhen: meta.visibleWhen,
    options,
    checks,
    itemChecks,
    meta,
    schema,
  };
}

const byOrder = (a: FieldDescriptor, b: FieldDescriptor) =>
  (a.order ?? Number.MAX_SAFE_INTEGER) - (b.order ?? Number.MAX_SAFE_INTEGER) || a.index - b.index;

export interface DescribeOptions {
  /** Only these fields (in this order when `order` is absent). */
  include?: readonly string[];
  exclude?: readonly string[];
  /** Per-field metadata that wins over the schema's (screen-specific tweaks). */
  overrides?: Readonly<Record<string, UiMeta>>;
}

/**
 * Every field of an object schema, sorted by `order` then shape order. Fields whose type can hold
 * no value (`z.undefined()`, `z.never()`) are left out.
 * @example describeObject(CredentialCreateBody).map((f) => f.name) // ['id', 'identifier', 'ak', 'sk', 'cred_id', 'description']
 */
export function describeObject(schema: AnySchema, opts: DescribeOptions = {}): FieldDescriptor[] {
  const shape = objectShape(schema);
  if (!shape) throw new Error('describeObject: not an object schema');
  const names = opts.include ? opts.include.filter((n) => n in shape) : Object.keys(shape);
  const out: FieldDescriptor[] = [];
  names.forEach((name, index) => {
    if (opts.exclude?.includes(name)) return;
    let d = describeField(name, shape[name], index);
    const o = opts.overrides?.[name];
    if (o) d = applyOverride(d, o);
    if (d.kind === 'never') return;
    out.push(d);
  });
  return out.sort(byOrder);
}

function applyOverride(d: FieldDescriptor, o: UiMeta): FieldDescriptor {
  const meta = { ...d.meta, ...o };
  const next: FieldDescriptor = {
    ...d,
    meta,
    label: meta.label,
    placeholder: meta.placeholder,
    help: meta.help,
    group: meta.group,
    order: meta.order,
    visibleWhen: meta.visibleWhen,
    readOnly: !!meta.readOnly || d.readOnly,
    disabled: !!meta.disabled,
  };
  if (o.widget) next.widget = o.widget;
  if (o.options || o.optionLabels) next.options = optionsOf(unwrap(d.schema).schema, meta) ?? next.options;
  return next;
}

/** The object-level metadata (title, groups). */
export function objectMeta(schema: AnySchema): UiMeta {
  return unwrap(schema).meta;
}

/** Whether a widget is one the kit renders itself. */
export const isKitWidget = isBuiltinWidget;

/** Default values of a form: the schema's defaults, then an empty value per widget. */
export function defaultValuesOf(fields: readonly FieldDescriptor[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = f.hasDefault ? f.defaultValue : emptyValue(f);
    if (v !== undefined) out[f.name] = v;
  }
  return out;
}

export interface FieldSection {
  /** The group id ('' for fields without a group). */
  id: string;
  /** i18n key of the title (undefined for the ungrouped section). */
  title?: string;
  help?: string;
  fields: FieldDescriptor[];
}

/**
 * Fields cut into sections by `group`, in the order of the object's `groups` meta, else of each
 * group's first field. Fields without a group form a leading untitled section.
 */
export function sectionsOf(fields: readonly FieldDescriptor[], groups: readonly { id: string; title?: string; help?: string; order?: number }[] = []): FieldSection[] {
  const map = new Map<string, FieldSection>();
  for (const f of fields) {
    const id = f.group ?? '';
    let sec = map.get(id);
    if (!sec) {
      const g = groups.find((x) => x.id === id);
      sec = { id, title: id ? (g?.title ?? id) : undefined, help: g?.help, fields: [] };
      map.set(id, sec);
    }
    sec.fields.push(f);
  }
  const rank = (id: string) => {
    if (id === '') return -Infinity;
    const i = groups.findIndex((g) => g.id === id);
    if (i < 0) return Number.MAX_SAFE_INTEGER;
    return groups[i].order ?? i;
  };
  // Stable: sections not in `groups` keep their first appearance order.
  return [...map.values()].map((s, i) => ({ s, i })).sort((a, b) => rank(a.s.id) - rank(b.s.id) || a.i - b.i).map(({ s }) => s);
}
