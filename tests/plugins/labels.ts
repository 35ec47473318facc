import type { z } from 'zod';
import { defOf, optionsOf, unwrap } from '../../schemas/ui';
import type { AnyNodePlugin, PluginMessages } from '../../src/plugin-sdk';

type AnySchema = z.core.$ZodType;

/** Every i18n key a schema's UI metadata names (labels, help, placeholders, groups, option labels). */
export function metaKeys(schema: AnySchema, out = new Set<string>(), depth = 0): Set<string> {
  if (depth > 12) return out;
  const { schema: inner, meta } = unwrap(schema);
  for (const k of [meta.label, meta.help, meta.placeholder, meta.group]) if (k) out.add(k);
  // Enum options are labelled through optionLabels; without them a value shows as it is.
  if (meta.optionLabels || meta.options) for (const o of optionsOf(schema, meta) ?? []) out.add(o.label);
  const d = defOf(inner);
  if (d.type === 'object' && d.shape) for (const s of Object.values(d.shape)) metaKeys(s, out, depth + 1);
  if (d.type === 'array' && d.element) metaKeys(d.element, out, depth + 1);
  return out;
}

function has(messages: PluginMessages, key: string): boolean {
  let cur: PluginMessages | string | undefined = messages;
  for (const part of key.split('.')) cur = typeof cur === 'object' ? cur[part] : undefined;
  return typeof cur === 'string';
}

/** Metadata keys of a plugin's config schema that have no zh or en text. */
export function missingLabelKeys(plugin: AnyNodePlugin): string[] {
  return [...metaKeys(plugin.configSchema)].filter((k) => !has(plugin.i18n.zh, k) || !has(plugin.i18n.en, k));
}

/** Every widget name a schema's UI metadata asks for (nested in objects and lists too). */
export function widgetNames(schema: AnySchema, out = new Set<string>(), depth = 0): Set<string> {
  if (depth > 12) return out;
  const { schema: inner, meta } = unwrap(schema);
  if (meta.widget) out.add(meta.widget);
  const d = defOf(inner);
  if (d.type === 'object' && d.shape) for (const s of Object.values(d.shape)) widgetNames(s, out, depth + 1);
  if (d.type === 'array' && d.element) widgetNames(d.element, out, depth + 1);
  return out;
}
