import { VALUE_TYPES, type ValueType } from '../../src/plugin-sdk';
import { oneOf, rec, str, type DifyImportContext, type DifyImportHook } from '../../src/plugin-sdk/dify';
import { namedSelectors, runSettings } from '../shared/dify';

const valueType = (v: unknown, fallback: ValueType = 'string'): ValueType => oneOf(v, VALUE_TYPES, fallback);

function fromDify(data: Record<string, unknown>, ctx: DifyImportContext) {
  const language = str(data.code_language, 'javascript');
  if (language !== 'javascript') ctx.warn('codeLanguage', { node: ctx.node, language });
  const outputs = Object.entries(rec(data.outputs)).map(([name, o]) => ({ name, type: valueType(rec(o).type) }));
  return { language: 'javascript', inputs: namedSelectors(data.variables, ctx), code: str(data.code), outputs, ...runSettings(data) };
}

/** Dify's code node (JavaScript only: another language is reported). */
export const dify: DifyImportHook = { types: ['code'], import: fromDify };
