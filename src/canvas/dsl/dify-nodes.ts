import { VALUE_TYPES, type NodeConfig, type ValueType } from '../../../schemas/flow';
import {
  bool,
  clamp,
  condition,
  list,
  memory,
  model,
  namedSelectors,
  num,
  oneOf,
  providerName,
  rec,
  runSettings,
  sel,
  str,
  text,
  vision,
  type DifyContext,
} from './dify-common';

/**
 * One mapper per Dify node type: Dify's `data` → our kind and config (before the plugin's schema
 * fills defaults). Selectors and `{{#…#}}` texts go through `sel`/`text`, which rewrite ids and
 * system variables. A Dify type missing here is reported as not mapped.
 */
export type DifyNodeMapper = (data: Record<string, unknown>, ctx: DifyContext) => { kind: string; config: NodeConfig };

const valueType = (v: unknown, fallback: ValueType = 'string'): ValueType => oneOf(v, VALUE_TYPES, fallback);

const START_TYPES: Record<string, string> = { 'text-input': 'text', paragraph: 'paragraph', select: 'select', number: 'number', file: 'file', 'file-list': 'file-list' };

function start(data: Record<string, unknown>, ctx: DifyContext) {
  const variables = list(data.variables).map((x) => {
    const v = rec(x);
    const name = str(v.variable).slice(0, 64);
    let type = START_TYPES[str(v.type)];
    if (!type) {
      ctx.warn('startFieldType', { name, type: str(v.type) });
      type = 'text';
    }
    const field: NodeConfig = {
      name,
      label: str(v.label).slice(0, 100),
      type,
      required: bool(v.required, true),
      options: list(v.options).map((o) => str(o)).slice(0, 100),
      allowed_extensions: list(v.allowed_file_extensions).map((e) => str(e)).slice(0, 50),
    };
    const max = num(v.max_length);
    // Dify keeps a file list's count in max_length; text fields their length.
    if (type === 'file-list' && max) field.max_files = clamp(max, 1, 100, 5);
    else if ((type === 'text' || type === 'paragraph') && max) field.max_length = clamp(max, 1, 100_000, 256);
    return field;
  });
  return { kind: 'start', config: { variables } };
}

function llm(data: Record<string, unknown>, ctx: DifyContext) {
  const template = data.prompt_template;
  const messages = (Array.isArray(template) ? template : [template]).filter(Boolean).map((x) => {
    const m = rec(x);
    const jinja = m.edition_type === 'jinja2';
    if (jinja) ctx.warn('jinjaPrompt', { node: ctx.node });
    return { role: oneOf(m.role, ['system', 'user', 'assistant'] as const, 'user'), text: text(jinja ? (m.jinja2_text ?? m.text) : m.text, ctx) };
  });
  const context = rec(data.context);
  const schema = rec(rec(data.structured_output).schema);
  const required = list(schema.required);
  const structuredOutput = Object.entries(rec(schema.properties)).map(([name, p]) => ({
    name,
    type: jsonSchemaType(rec(p)),
    description: str(rec(p).description).slice(0, 1000),
    required: required.includes(name),
  }));
  return {
    kind: 'llm',
    config: {
      model: model(data.model),
      prompts: messages,
      contextEnabled: bool(context.enabled),
      context: sel(context.variable_selector, ctx),
      ...memory(data.memory),
      ...vision(data.vision, ctx),
      structuredOutputEnabled: bool(data.structured_output_enabled),
      structuredOutput,
      ...runSettings(data),
    },
  };
}

/** A JSON Schema property → one of the types a model can be asked for. */
function jsonSchemaType(p: Record<string, unknown>): string {
  const t = str(p.type);
  if (t === 'integer') return 'number';
  if (t === 'array') {
    const item = str(rec(p.items).type);
    return `array[${item === 'integer' ? 'number' : oneOf(item, ['string', 'number', 'boolean', 'object'] as const, 'string')}]`;
  }
  return oneOf(t, ['string', 'number', 'boolean', 'object'] as const, 'string');
}

function knowledgeRetrieval(data: Record<string, unknown>, ctx: DifyContext) {
  const config: NodeConfig = {
    query: sel(data.query_variable_selector, ctx),
    datasetIds: list(data.dataset_ids).map((d) => str(d)).filter((d) => d && d.length <= 64),
    ...runSettings(data),
  };
  if (data.retrieval_mode === 'single') ctx.warn('retrievalSingle', { node: ctx.node });
  const multi = rec(data.multiple_retrieval_config);
  if (num(multi.top_k) !== undefined) config.topK = clamp(multi.top_k, 1, 50, 4);
  const threshold = num(multi.score_threshold);
  if (threshold !== undefined && threshold > 0) Object.assign(config, { scoreThresholdEnabled: true, scoreThreshold: clamp(threshold, 0, 1, 0.5, false) });
  if (bool(multi.reranking_enable) || multi.reranking_mode === 'weighted_score') {
    if (multi.reranking_mode === 'weighted_score') {
      ctx.warn('rerankWeighted', { node: ctx.node });
      const weight = num(rec(rec(multi.weights).vector_setting).vector_weight);
      Object.assign(config, { retrievalMode: 'hybrid', ...(weight !== undefined ? { vectorWeight: clamp(weight, 0, 1, 0.7, false) } : {}) });
    } else {
      const r = rec(multi.reranking_model);
      Object.assign(config, { rerankEnabled: true, rerankProvider: providerName(r.provider).slice(0, 100), rerankModel: str(r.model).slice(0, 200) });
    }
  }
  if (data.metadata_filtering_mode === 'automatic') ctx.warn('metadataAutomatic', { node: ctx.node });
  if (data.metadata_filtering_mode === 'manual') {
    const f = rec(data.metadata_filtering_conditions);
    Object.assign(config, {
      metadataFilterMode: 'manual',
      metadataLogicalOperator: oneOf(f.logical_operator, ['and', 'or'] as const, 'and'),
      metadataConditions: list(f.conditions).map((x) => ({ name: str(rec(x).name), operator: str(rec(x).comparison_operator), value: str(rec(x).value) })),
    });
  }
  return { kind: 'knowledge-retrieval', config };
}

function code(data: Record<string, unknown>, ctx: DifyContext) {
  const language = str(data.code_language, 'javascript');
  if (language !== 'javascript') ctx.warn('codeLanguage', { node: ctx.node, language });
  const outputs = Object.entries(rec(data.outputs)).map(([name, o]) => ({ name, type: valueType(rec(o).type) }));
  return { kind: 'code', config: { language: 'javascript', inputs: namedSelectors(data.variables, ctx), code: str(data.code), outputs, ...runSettings(data) } };
}

function ifElse(data: Record<string, unknown>, ctx: DifyContext) {
  // Files before Dify 0.8 hold one case at the top level (its branch is `true`).
  const cases = Array.isArray(data.cases) ? data.cases : [{ case_id: 'true', logical_operator: data.logical_operator, conditions: data.conditions }];
  return {
    kind: 'if-else',
    config: {
      cases: cases.map((x) => {
        const c = rec(x);
        return { id: str(c.case_id ?? c.id), logicalOperator: oneOf(c.logical_operator, ['and', 'or'] as const, 'and'), conditions: list(c.conditions).map((k) => condition(k, ctx)) };
      }),
    },
  };
}

const modelNode = (data: Record<string, unknown>, ctx: DifyContext) => ({ model: model(data.model), ...memory(data.memory), ...vision(data.vision, ctx) });

const classifier: DifyNodeMapper = (data, ctx) => ({
  kind: 'question-classifier',
  config: {
    ...modelNode(data, ctx),
    query: sel(data.query_variable_selector, ctx),
    classes: list(data.classes).map((x) => ({ id: str(rec(x).id), name: str(rec(x).name).slice(0, 500) })),
    instruction: text(data.instruction, ctx),
  },
});

const PARAM_TYPES: Record<string, string> = { bool: 'boolean', select: 'string' };

const extractor: DifyNodeMapper = (data, ctx) => ({
  kind: 'parameter-extractor',
  config: {
    ...modelNode(data, ctx),
    query: sel(data.query, ctx),
    parameters: list(data.parameters).map((x) => {
      const p = rec(x);
      return {
        name: str(p.name).slice(0, 64),
        type: PARAM_TYPES[str(p.type)] ?? str(p.type, 'string'),
        description: str(p.description).slice(0, 1000),
        required: bool(p.required),
        options: list(p.options).map((o) => str(o)).slice(0, 100),
      };
    }),
    instruction: text(data.instruction, ctx),
    reasoningMode: oneOf(data.reasoning_mode, ['function_call', 'prompt'] as const, 'function_call'),
  },
});

const template: DifyNodeMapper = (data, ctx) => ({ kind: 'template-transform', config: { inputs: namedSelectors(data.variables, ctx), template: str(data.template) } });

/** Dify keeps headers and params as `key:value` lines. */
const keyValueLines = (v: unknown, ctx: DifyContext) =>
  str(v)
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => {
      const at = l.indexOf(':');
      return at < 0 ? { key: text(l.trim(), ctx), value: '' } : { key: text(l.slice(0, at).trim(), ctx), value: text(l.slice(at + 1).trim(), ctx) };
    });

function httpRequest(data: Record<string, unknown>, ctx: DifyContext) {
  const body = rec(data.body);
  const items = list(body.data).map(rec);
  const first = items[0] ?? {};
  const bodyText = typeof body.data === 'string' ? body.data : first.value;
  const config: NodeConfig = {
    method: str(data.method, 'get').toLowerCase(),
    url: text(data.url, ctx),
    headers: keyValueLines(data.headers, ctx),
    params: keyValueLines(data.params, ctx),
    verifySsl: bool(data.ssl_verify, true),
    ...runSettings(data),
  };
  const type = str(body.type, 'none');
  if (type === 'json') Object.assign(config, { bodyType: 'json', json: text(bodyText, ctx) });
  else if (type === 'raw-text') Object.assign(config, { bodyType: 'raw', raw: text(bodyText, ctx) });
  else if (type === 'binary') Object.assign(config, { bodyType: 'binary', binary: sel(first.file, ctx) });
  else if (type === 'form-data' || type === 'x-www-form-urlencoded') {
    const formData =
      typeof body.data === 'string'
        ? keyValueLines(body.data, ctx).map((kv) => ({ key: kv.key, type: 'text', value: kv.value, file: [] }))
        : items.map((f) => ({ key: str(f.key).slice(0, 200), type: oneOf(f.type, ['text', 'file'] as const, 'text'), value: text(f.value, ctx), file: sel(f.file, ctx) }));
    Object.assign(config, { bodyType: type, formData });
  }
  const auth = rec(data.authorization);
  const a = rec(auth.config);
  const key = text(a.api_key, ctx);
  if (auth.type === 'api-key') {
    if (a.type === 'bearer') Object.assign(config, { authType: 'bearer', token: key });
    else if (a.type === 'basic' && key.includes(':') && !key.startsWith('{{#')) {
      const at = key.indexOf(':');
      Object.assign(config, { authType: 'basic', username: key.slice(0, at), password: key.slice(at + 1) });
    } else if (a.type === 'basic') Object.assign(config, { authType: 'api-key', apiKeyIn: 'header', apiKeyName: 'Authorization', token: `Basic ${key}` });
    else Object.assign(config, { authType: 'api-key', apiKeyIn: 'header', apiKeyName: str(a.header, 'Authorization') || 'Authorization', token: key });
  }
  const t = rec(data.timeout);
  // Dify writes 0 or nothing for "the default".
  if (num(t.max_connect_timeout)) config.connectTimeoutSeconds = clamp(t.max_connect_timeout, 1, 300, 10);
  if (num(t.max_read_timeout)) config.readTimeoutSeconds = clamp(t.max_read_timeout, 1, 600, 60);
  if (num(t.max_write_timeout)) config.writeTimeoutSeconds = clamp(t.max_write_timeout, 1, 600, 20);
  return { kind: 'http-request', config };
}

const aggregatorType = (v: unknown) => (v === undefined || v === 'any' ? 'auto' : str(v, 'auto'));

function aggregator(data: Record<string, unknown>, ctx: DifyContext) {
  const adv = rec(data.advanced_settings);
  return {
    kind: 'variable-aggregator',
    config: {
      outputType: aggregatorType(data.output_type),
      selectors: list(data.variables).map((s) => sel(s, ctx)),
      groupsEnabled: bool(adv.group_enabled),
      groups: list(adv.groups).map((x) => {
        const g = rec(x);
        return { name: str(g.group_name).slice(0, 64), outputType: aggregatorType(g.output_type), selectors: list(g.variables).map((s) => sel(s, ctx)) };
      }),
    },
  };
}

function assigner(data: Record<string, unknown>, ctx: DifyContext) {
  // Version 1 files: one assignment with a write mode.
  const items = Array.isArray(data.items)
    ? data.items.map(rec)
    : [{ variable_selector: data.assigned_variable_selector, operation: data.write_mode, input_type: 'variable', value: data.input_variable_selector }];
  return {
    kind: 'variable-assigner',
    config: {
      assignments: items.map((i) => {
        const constant = i.input_type === 'constant';
        return {
          target: sel(i.variable_selector, ctx),
          operation: str(i.operation, 'over-write'),
          source: constant ? 'constant' : 'variable',
          selector: constant ? [] : sel(i.value, ctx),
          ...(constant ? { value: i.value } : {}),
        };
      }),
    },
  };
}

/** Dify's `variable-assigner` type is the old name of the aggregator, unless it holds assignments. */
const variableAssigner: DifyNodeMapper = (data, ctx) => ('items' in data || 'assigned_variable_selector' in data ? assigner(data, ctx) : aggregator(data, ctx));

const iteration: DifyNodeMapper = (data, ctx) => ({
  kind: 'iteration',
  config: {
    iterator: sel(data.iterator_selector, ctx),
    output: sel(data.output_selector, ctx),
    parallel: bool(data.is_parallel),
    maxParallelism: clamp(data.parallel_nums, 1, 10, 10),
    errorMode: oneOf(data.error_handle_mode, ['terminated', 'remove-abnormal-output', 'continue-on-error'] as const, 'terminated'),
    flattenOutput: bool(data.flatten_output, true),
  },
});

const loop: DifyNodeMapper = (data, ctx) => ({
  kind: 'loop',
  config: {
    loopVariables: list(data.loop_variables).map((x) => {
      const v = rec(x);
      const type = valueType(v.var_type);
      const fromVariable = v.value_type === 'variable';
      const constant = type === 'number' ? (num(v.value) ?? v.value) : v.value;
      return { name: str(v.label).slice(0, 64), type, source: fromVariable ? 'variable' : 'constant', selector: fromVariable ? sel(v.value, ctx) : [], ...(fromVariable ? {} : { value: constant }) };
    }),
    breakConditions: list(data.break_conditions).map((c) => condition(c, ctx)),
    logicalOperator: oneOf(data.logical_operator, ['and', 'or'] as const, 'and'),
    maxCount: clamp(data.loop_count, 1, 1000, 10),
  },
});

function tool(data: Record<string, unknown>, ctx: DifyContext) {
  const name = str(data.tool_name);
  ctx.warn('toolNeedsSetup', { node: ctx.node, tool: str(data.tool_label) || name });
  const params = Object.entries(rec(data.tool_parameters)).map(([pname, x]) => {
    const p = rec(x);
    return p.type === 'variable'
      ? { name: pname, source: 'variable', selector: sel(p.value, ctx), text: '' }
      : { name: pname, source: 'text', selector: [], text: text(typeof p.value === 'object' && p.value !== null ? JSON.stringify(p.value) : str(p.value), ctx) };
  });
  // The workspace's tool is not known from a Dify file: the builder picks it again.
  return { kind: 'tool', config: { toolId: '', functionId: name.slice(0, 200), params, ...runSettings(data) } };
}

/** The plain text of a Lexical editor state (Dify's notes). */
function lexicalText(v: unknown): string {
  const s = str(v);
  let root: unknown;
  try {
    root = JSON.parse(s);
  } catch {
    return s;
  }
  const walk = (n: unknown): string => {
    const o = rec(n);
    if (typeof o.text === 'string') return o.text;
    const parts = list(o.children).map(walk);
    return o.type === 'root' ? parts.join('\n') : parts.join(o.type === 'list' ? '\n' : '');
  };
  return walk(rec(root).root).slice(0, 10_000);
}

const note: DifyNodeMapper = (data) => ({
  kind: 'note',
  config: {
    text: lexicalText(data.text),
    theme: oneOf(data.theme, ['yellow', 'blue', 'green', 'pink', 'violet', 'cyan'] as const, 'yellow'),
    showAuthor: bool(data.showAuthor),
    author: str(data.author).slice(0, 100),
  },
});

export const DIFY_NODE_MAPPERS: Readonly<Record<string, DifyNodeMapper>> = {
  start,
  end: (data, ctx) => ({ kind: 'end', config: { outputs: namedSelectors(data.outputs, ctx) } }),
  answer: (data, ctx) => ({ kind: 'answer', config: { answer: text(data.answer, ctx) } }),
  llm,
  'knowledge-retrieval': knowledgeRetrieval,
  code,
  'if-else': ifElse,
  'question-classifier': classifier,
  'parameter-extractor': extractor,
  'template-transform': template,
  'http-request': httpRequest,
  'variable-aggregator': aggregator,
  'variable-assigner': variableAssigner,
  assigner,
  iteration,
  'iteration-start': () => ({ kind: 'iteration-start', config: {} }),
  loop,
  'loop-start': () => ({ kind: 'loop-start', config: {} }),
  tool,
  note,
};
