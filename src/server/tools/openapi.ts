import { createRequire } from 'node:module';
import type { BodySubtype, DataType, ParamRow } from '../../../schemas/parameter';
import type { HttpMethod } from '../../../schemas/tool';
import type { FunctionInput } from './functions';

/**
 * Reads an OpenAPI 3.x or Swagger 2.0 document (JSON or YAML) into a tool: its title and
 * description, and one function per operation with the parameters as parameter-table rows by
 * location (query, path, header, body, response). Local `$ref`s are followed. Keys that the table
 * does not allow (spec 5: letters, digits, underscore) are written with `_` in place of the others.
 */

export class OpenApiError extends Error {}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head'] as const;
const MAX_DEPTH = 6;

export interface ImportedTool {
  title: string;
  description: string;
  functions: FunctionInput[];
}

export function parseDocument(text: string): Obj {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    try {
      // yaml (70-odd modules) is read on the first YAML document, not at the server's start (issue 32).
      const { parse } = createRequire(import.meta.url)('yaml') as typeof import('yaml');
      doc = parse(text, { maxAliasCount: 100 });
    } catch (e) {
      throw new OpenApiError(`The document is neither JSON nor YAML: ${(e as Error).message.split('\n')[0]}`);
    }
  }
  if (!isObj(doc)) throw new OpenApiError('The document is not an object');
  return doc;
}

const safeKey = (k: string) => k.replace(/[^A-Za-z0-9_]/g, '_') || '_';
const safeName = (k: string) => k.replace(/[^A-Za-z0-9_-]/g, '_').replace(/_+/g, '_').replace(/^_|_$/g, '').slice(0, 64) || 'operation';

export function importOpenApi(text: string): ImportedTool {
  const doc = parseDocument(text);
  const v3 = typeof doc.openapi === 'string' && doc.openapi.startsWith('3.');
  const v2 = String(doc.swagger ?? '') === '2.0';
  if (!v3 && !v2) throw new OpenApiError('Only OpenAPI 3.x and Swagger 2.0 documents can be imported');
  if (!isObj(doc.paths) || Object.keys(doc.paths).length === 0) throw new OpenApiError('The document has no paths');

  const deref = (v: unknown, depth = 0): unknown => {
    if (!isObj(v) || typeof v.$ref !== 'string') return v;
    if (depth > MAX_DEPTH || !v.$ref.startsWith('#/')) return {};
    let cur: unknown = doc;
    for (const part of v.$ref.slice(2).split('/')) cur = isObj(cur) ? cur[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
    return deref(cur, depth + 1);
  };

  const base = baseUrl(doc, v3);
  const info = isObj(doc.info) ? doc.info : {};
  const used = new Set<string>();
  const functions: FunctionInput[] = [];
  for (const [path, rawItem] of Object.entries(doc.paths as Obj)) {
    const item = deref(rawItem);
    if (!isObj(item)) continue;
    for (const method of METHODS) {
      const op = deref(item[method]);
      if (!isObj(op)) continue;
      const raw = typeof op.operationId === 'string' && op.operationId ? op.operationId : `${method}_${path}`;
      let name = safeName(raw);
      for (let i = 2; used.has(name.toLowerCase()); i++) name = `${safeName(raw).slice(0, 60)}_${i}`;
      used.add(name.toLowerCase());
      functions.push(operation(name, method, path, op, [...asArray(item.parameters), ...asArray(op.parameters)], base, v3, doc, deref));
    }
  }
  if (functions.length === 0) throw new OpenApiError('The document has no operations');
  return { title: typeof info.title === 'string' ? info.title : '', description: typeof info.description === 'string' ? info.description : '', functions };
}

const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function baseUrl(doc: Obj, v3: boolean): string {
  if (v3) {
    const server = asArray(doc.servers).find(isObj);
    let url = typeof server?.url === 'string' ? server.url : '';
    if (isObj(server?.variables)) {
      for (const [k, v] of Object.entries(server.variables)) url = url.split(`{${k}}`).join(isObj(v) && v.default !== undefined ? String(v.default) : '');
    }
    if (!/^https?:\/\//i.test(url)) throw new OpenApiError('The document needs an absolute http(s) server URL under servers');
    return url.replace(/\/+$/, '');
  }
  const host = typeof doc.host === 'string' ? doc.host : '';
  if (!host) throw new OpenApiError('The Swagger document needs a host');
  const scheme = asArray(doc.schemes).includes('https') || !asArray(doc.schemes).length ? 'https' : 'http';
  const basePath = typeof doc.basePath === 'string' ? doc.basePath : '';
  return `${scheme}://${host}${basePath}`.replace(/\/+$/, '');
}

type Deref = (v: unknown) => unknown;
type Place = 'params' | 'flat-body' | 'tree';

/** The table's data type for a JSON Schema type in a place (spec 3 allows fewer types outside json). */
function dataType(schema: Obj, place: Place): DataType {
  const t = Array.isArray(schema.type) ? schema.type.find((x) => x !== 'null') : schema.type;
  const tree = place === 'tree';
  if (t === 'integer') return schema.format === 'int64' ? 'long' : 'integer';
  if (t === 'number') return 'decimal';
  if (t === 'boolean') return tree ? 'boolean' : 'string';
  if (t === 'object' || (!t && isObj(schema.properties))) return tree ? 'object' : 'string';
  if (t === 'string' && schema.format === 'date-time' && place !== 'params') return 'datetime';
  return 'string';
}

function schemaRows(schemaIn: unknown, deref: Deref, requiredKeys: unknown[], depth: number): ParamRow[] {
  const schema = deref(schemaIn);
  if (!isObj(schema) || !isObj(schema.properties) || depth > MAX_DEPTH) return [];
  return Object.entries(schema.properties).map(([key, propIn]) => treeRow(key, propIn, deref, requiredKeys.includes(key), depth));
}

function treeRow(key: string, propIn: unknown, deref: Deref, required: boolean, depth: number): ParamRow {
  let prop = deref(propIn);
  if (!isObj(prop)) prop = {};
  let p = prop as Obj;
  const isArray = p.type === 'array';
  if (isArray) p = (deref(p.items) as Obj) ?? {};
  const type = dataType(p, 'tree');
  const row: ParamRow = { param_key: safeKey(key), param_name: key, description: describe(prop as Obj), data_type: type, is_not_null: required, is_array: isArray };
  if (type === 'object') {
    const children = schemaRows(p, deref, asArray(p.required), depth + 1);
    // An object row keeps at least one child (spec 4).
    row.children = children.length ? children : [{ param_key: 'value', data_type: 'string', is_array: false, is_not_null: false }];
  }
  return row;
}

const describe = (o: Obj) => (typeof o.description === 'string' ? o.description : typeof o.title === 'string' ? o.title : '').slice(0, 500);
const enumText = (s: Obj) => (Array.isArray(s.enum) ? s.enum.map(String).join(',') : '');
const defText = (s: Obj) => (s.default !== undefined && !isObj(s.default) ? String(s.default) : '');

function flatRow(key: string, schemaIn: unknown, extra: Obj, required: boolean, deref: Deref, place: Place): ParamRow {
  const schema = (deref(schemaIn) as Obj) ?? {};
  return {
    param_key: safeKey(key),
    param_name: key,
    description: describe(extra) || describe(schema),
    data_type: dataType(schema, place),
    optional_values: enumText(schema),
    default_value: defText(schema),
    is_not_null: required,
  };
}

function operation(name: string, method: string, path: string, op: Obj, rawParams: unknown[], base: string, v3: boolean, doc: Obj, deref: Deref): FunctionInput {
  const params: ParamRow[] = [];
  const headers: ParamRow[] = [];
  let body: ParamRow[] = [];
  let subtype: BodySubtype = 'json';
  let urlPath = path;
  const swaggerForm: ParamRow[] = [];
  const seen = new Set<string>();
  for (const raw of rawParams.reverse()) {
    const p = deref(raw);
    if (!isObj(p) || typeof p.name !== 'string') continue;
    const id = `${p.in}:${p.name}`;
    // Operation parameters override path-item ones (later in the list, read first here).
    if (seen.has(id)) continue;
    seen.add(id);
    const schema = v3 ? p.schema : p;
    const required = p.required === true;
    if (p.in === 'query' || p.in === 'path') {
      const row = { ...flatRow(p.name, schema, p, required || p.in === 'path', deref, 'params'), request_type: p.in === 'path' ? ('query_path' as const) : ('query_params' as const) };
      if (p.in === 'path') urlPath = urlPath.split(`{${p.name}}`).join(`{${row.param_key}}`);
      params.unshift(row);
    } else if (p.in === 'header') {
      const row = flatRow(p.name, schema, p, required, deref, 'params');
      headers.unshift({ ...row, param_key: p.name, param_value: row.default_value || `{${row.param_key}}` });
    } else if (!v3 && p.in === 'body') {
      body = jsonBody(p.schema, deref);
    } else if (!v3 && p.in === 'formData') {
      swaggerForm.unshift({ ...flatRow(p.name, p, p, required, deref, 'flat-body'), request_type: 'body' });
    }
  }
  if (!v3 && swaggerForm.length) {
    const consumes = asArray(op.consumes ?? doc.consumes).map(String);
    subtype = consumes.includes('application/x-www-form-urlencoded') ? 'x-www-form-urlencoded' : 'form-data';
    body = swaggerForm.map((r) => ({ ...r, request_subtype: subtype }));
  }
  if (v3) {
    const rb = deref(op.requestBody);
    const content = isObj(rb) && isObj(rb.content) ? rb.content : {};
    const jsonType = Object.keys(content).find((k) => k.includes('json'));
    const formType = ['application/x-www-form-urlencoded', 'multipart/form-data'].find((k) => k in content);
    if (jsonType) body = jsonBody((content[jsonType] as Obj)?.schema, deref);
    else if (formType) {
      subtype = formType === 'multipart/form-data' ? 'form-data' : 'x-www-form-urlencoded';
      const schema = deref((content[formType] as Obj)?.schema) as Obj;
      const req = asArray(schema?.required);
      body = Object.entries(isObj(schema?.properties) ? schema.properties : {}).map(([k, s]) => ({
        ...flatRow(k, s, (deref(s) as Obj) ?? {}, req.includes(k), deref, 'flat-body'),
        request_type: 'body' as const,
        request_subtype: subtype,
      }));
    }
  }
  if (subtype === 'json') body = body.map((r) => ({ ...r, request_type: 'body' as const, request_subtype: 'json' as const }));
  return {
    name,
    description: (typeof op.summary === 'string' && op.summary) || describe(op) || `${method.toUpperCase()} ${path}`,
    method: method.toUpperCase() as HttpMethod,
    url: `${base}${urlPath.startsWith('/') ? '' : '/'}${urlPath}`,
    params,
    headers,
    body,
    body_subtype: subtype,
    response: responseRows(op, v3, deref),
    enabled: true,
  };
}

/** A json body as the table holds it: one object row `data` whose children are the fields. */
function jsonBody(schemaIn: unknown, deref: Deref): ParamRow[] {
  const schema = deref(schemaIn);
  if (!isObj(schema)) return [];
  const children = schemaRows(schema, deref, asArray(schema.required), 1);
  if (!children.length) return [];
  return [{ param_key: 'data', data_type: 'object', is_array: false, is_not_null: true, children }];
}

function responseRows(op: Obj, v3: boolean, deref: Deref): ParamRow[] {
  const responses = isObj(op.responses) ? op.responses : {};
  const key = ['200', '201', '202', 'default'].find((k) => k in responses) ?? Object.keys(responses).find((k) => k.startsWith('2'));
  const res = key ? deref(responses[key]) : undefined;
  if (!isObj(res)) return [];
  let schema: unknown = res.schema;
  if (v3 && isObj(res.content)) {
    const jsonType = Object.keys(res.content).find((k) => k.includes('json'));
    schema = jsonType ? (res.content[jsonType] as Obj)?.schema : undefined;
  }
  const s = deref(schema);
  if (!isObj(s)) return [];
  if (s.type === 'array') return [treeRow('items', s, deref, false, 1)];
  return schemaRows(s, deref, asArray(s.required), 1);
}
