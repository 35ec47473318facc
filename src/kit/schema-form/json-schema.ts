import { z } from 'zod';
import { isSecretProperty } from '../../../schemas/plugin-credentials';

/**
 * A plugin's credentials schema (a flat JSON Schema object, made by `npm run plugin:pack` from zod)
 * as a zod object with the kit's UI metadata, so {@link SchemaForm} draws its form: strings,
 * numbers, booleans and string enums; a secret property gets the secret widget. A property's label
 * is its `titles[lang]`, else its `title`, else its name (a plugin's texts are its own, not keys of
 * ours; an unknown key shows as written).
 * @example <SchemaForm schema={zodFromJsonSchema(plugin.credentials_schema, i18n.language)} />
 */
export function zodFromJsonSchema(schema: Record<string, unknown>, lang: string): z.ZodObject<Record<string, z.ZodType>> {
  const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const shape: Record<string, z.ZodType> = {};
  for (const [name, p] of Object.entries(props)) {
    const titles = (p.titles ?? {}) as Record<string, unknown>;
    const label = String(titles[lang.startsWith('zh') ? 'zh' : 'en'] ?? p.title ?? name);
    let field: z.ZodType;
    if (Array.isArray(p.enum) && p.enum.every((v) => typeof v === 'string')) field = z.enum(p.enum as [string, ...string[]]);
    else if (p.type === 'number' || p.type === 'integer') field = p.type === 'integer' ? z.number().int() : z.number();
    else if (p.type === 'boolean') field = z.boolean();
    else {
      let s = z.string();
      if (typeof p.minLength === 'number') s = s.min(p.minLength);
      if (typeof p.maxLength === 'number') s = s.max(p.maxLength);
      field = s;
    }
    const meta = { label, ...(isSecretProperty(p) ? { widget: 'secret' } : {}), ...(typeof p.description === 'string' ? { help: p.description } : {}) };
    shape[name] = (required.has(name) ? field : field.optional()).meta(meta);
  }
  return z.object(shape);
}
