import { VALUE_TYPES, type ValueType } from '../../src/plugin-sdk';
import { oneOf, rec, str, type DifyImportContext, type DifyImportHook } from '../../src/plugin-sdk/dify';
import { namedSelectors, runSettings } from '../shared/dify';
import { CODE_LANGUAGES } from './languages';

const valueType = (v: unknown, fallback: ValueType = 'string'): ValueType => oneOf(v, VALUE_TYPES, fallback);

function fromDify(data: Record<string, unknown>, ctx: DifyImportContext) {
  const given = str(data.code_language, 'javascript');
  // Dify's ids are Weft's: python3 stays Python with its body unchanged; anything else is reported.
  const language = oneOf(given, CODE_LANGUAGES, 'javascript');
  if (language !== given) ctx.warn('codeLanguage', { node: ctx.node, language: given });
  const outputs = Object.entries(rec(data.outputs)).map(([name, o]) => ({ name, type: valueType(rec(o).type) }));
  return { language, inputs: namedSelectors(data.variables, ctx), code: str(data.code), outputs, ...runSettings(data) };
}

/** Dify's code node (JavaScript and Python 3; another language is reported). */
export const dify: DifyImportHook = { types: ['code'], import: fromDify };
