import { parseDocument } from 'yaml';
import { FLOW_LIMITS } from '../../../schemas/flow';
import { dslError, type DslError } from './messages';

/** YAML files may be several times the JSON size of the flow they hold (indentation, block text). */
export const MAX_FILE_BYTES = FLOW_LIMITS.maxBytes * 4;

export type ParsedYaml = { ok: true; value: Record<string, unknown> } | { ok: false; errors: DslError[] };

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Parses a YAML text into a plain object, with clear errors: too large, invalid YAML (with its
 * line), or not an object. Aliases are capped (a "billion laughs" file must not hang the tab).
 */
export function parseYamlObject(text: string): ParsedYaml {
  if (text.length > MAX_FILE_BYTES) return { ok: false, errors: [dslError('tooLarge', { max: MAX_FILE_BYTES / 1024 / 1024 })] };
  // prettyErrors: the parser fills each error's line (without it every error said "line 1").
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: false });
  const first = doc.errors[0];
  if (first) {
    const message = first.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
    return { ok: false, errors: [dslError('yamlInvalid', { line: first.linePos?.[0]?.line ?? 1, message })] };
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    return { ok: false, errors: [dslError('yamlInvalid', { line: 1, message: e instanceof Error ? e.message : String(e) })] };
  }
  return isRecord(value) ? { ok: true, value } : { ok: false, errors: [dslError('notAnObject')] };
}

/** Which kind of flow file a parsed YAML object is. */
export type FlowFileFormat = 'weft' | 'dify';

export const WEFT_FLOW_KIND = 'weft-flow';

export function detectFlowFormat(value: Record<string, unknown>): FlowFileFormat | undefined {
  if (value.kind === WEFT_FLOW_KIND) return 'weft';
  const workflow = value.workflow;
  if ((value.kind === 'app' || isRecord(value.app)) && isRecord(workflow) && 'graph' in workflow) return 'dify';
  // Dify's chat, agent-chat and completion exports have no workflow: still Dify files (their mode is refused by name).
  if (value.kind === 'app' && isRecord(value.app) && typeof value.app.mode === 'string') return 'dify';
  return undefined;
}
