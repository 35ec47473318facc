import type { z } from 'zod';
import type { NodeConfig } from '../../../schemas/flow';
import type { DifyImportContext } from '../../plugin-sdk';

/**
 * The importer's side of a kind's Dify hook: the hook maps Dify's data to plain config with the
 * SDK's readers (src/plugin-sdk/dify.ts), and the kind's schema has the last word (`fitConfig`).
 */

/** What the importer hands a kind's hook (the SDK's context). */
export type DifyContext = DifyImportContext;

/**
 * Parses the mapped config with the plugin's schema. Fields the schema refuses are dropped (one
 * warning each) so the node keeps what did fit and gets defaults for the rest.
 */
export function fitConfig(schema: z.ZodType, config: NodeConfig, ctx: DifyContext): NodeConfig {
  let current = { ...config };
  for (let attempt = 0; attempt < 50; attempt++) {
    const r = schema.safeParse(current);
    if (r.success) return r.data as NodeConfig;
    const bad = new Set(r.error.issues.map((i) => String(i.path[0] ?? '')));
    if (bad.has('') || ![...bad].some((k) => k in current)) break;
    for (const k of bad) {
      if (!(k in current)) continue;
      ctx.warn('fieldDropped', { node: ctx.node, field: k });
      delete current[k];
    }
  }
  current = {};
  return schema.parse(current) as NodeConfig;
}
