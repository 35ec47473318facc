import { describe, expect, it } from 'vitest';
import { FlowDocument, type FlowNode } from '../../../schemas/flow';
import { createNodeRegistry, SDK_NAMESPACE, type NodeIssue } from '../../plugin-sdk';
import { builtinPlugins } from '../builtin-plugins';
import { importDifyDsl } from './dify-import';
import { exportFlowYaml, importFlowYaml } from './flow-yaml';
import { importFlowFile } from './index';
import chatflowYaml from './fixtures/chatflow-knowledge.yml?raw';
import workflowYaml from './fixtures/workflow-branches.yml?raw';
import unknownYaml from './fixtures/unknown-node.yml?raw';

const registry = createNodeRegistry(builtinPlugins);

function imported(text: string) {
  const r = importDifyDsl(text, registry);
  if (!r.ok) throw new Error(`import failed: ${JSON.stringify(r.errors)}`);
  return r;
}

const node = (doc: FlowDocument, id: string): FlowNode => {
  const n = doc.nodes.find((x) => x.id === id);
  if (!n) throw new Error(`no node ${id}`);
  return n;
};
const referenceIssues = (doc: FlowDocument): NodeIssue[] => registry.validateFlow(doc).filter((i) => i.ns === SDK_NAMESPACE && i.key.startsWith('issues.reference'));
const handles = (doc: FlowDocument, source: string) => doc.edges.filter((e) => e.source === source).map((e) => e.sourceHandle).sort();

/** Every mapped document is a valid flow and comes back unchanged through our YAML. */
function expectValidAndRoundTrips(doc: FlowDocument) {
  expect(FlowDocument.safeParse(doc).success).toBe(true);
  expect(registry.validateFlow(doc).filter((i) => i.key === 'issues.configInvalid' || i.key === 'issues.kindUnknown')).toEqual([]);
  const back = importFlowYaml(exportFlowYaml(doc, { name: 'Round trip' }), registry);
  expect(back.ok).toBe(true);
  // Secrets leave without their value; nothing else changes.
  if (back.ok) expect(back.document).toEqual({ ...doc, variables: { ...doc.variables, env: doc.variables.env.map(({ ...v }) => (v.type === 'secret' ? (delete v.value, v) : v)) } });
}

describe('importDifyDsl: chatflow with a classifier, knowledge retrieval, llm and answers', () => {
  const r = imported(chatflowYaml);
  const doc = r.document;

  it('maps every node, keeps the app and mode, and validates without reference errors', () => {
    expect(doc.mode).toBe('chatflow');
    expect(r.app).toMatchObject({ name: 'Help centre assistant', mode: 'chatflow' });
    expect(r.unmapped).toEqual([]);
    // Only the knowledge bases to pick again (their ids name the Dify installation's bases).
    expect(r.warnings).toEqual([{ key: 'warnings.knowledgeBaseToPick', params: { node: 'Help centre', nodeId: '1711528915811' } }]);
    expect(doc.nodes.map((n) => n.kind).sort()).toEqual(['answer', 'answer', 'knowledge-retrieval', 'llm', 'llm', 'note', 'question-classifier', 'start', 'variable-assigner']);
    expect(referenceIssues(doc)).toEqual([]);
    expectValidAndRoundTrips(doc);
  });

  it("rewrites Dify's system-variable selectors and keeps {{#…#}} references", () => {
    expect(node(doc, '1711528917469').config.query).toEqual(['sys', 'query']);
    expect(node(doc, '1711528915811').config.query).toEqual(['sys', 'query']);
    const smallTalk = node(doc, '1711528921000').config.prompts as { role: string; text: string }[];
    expect(smallTalk[1].text).toBe('{{#sys.query#}}');
    expect(smallTalk[0].text).toContain('{{#conversation.user_name#}}');
    expect(node(doc, '1711528920000').config.answer).toBe('{{#1711528919501.text#}}');
  });

  it('maps the classifier, retrieval and llm settings to our configs', () => {
    const classifier = node(doc, '1711528917469').config;
    expect(classifier.classes).toEqual([
      { id: '1', name: 'Questions about the product, pricing, accounts or billing' },
      { id: '2', name: 'Greetings and small talk' },
    ]);
    expect(classifier.model).toMatchObject({ provider: 'openai', name: 'gpt-4o-mini', params: { temperature: 0.2 } });
    expect(handles(doc, '1711528917469')).toEqual(['1', '2']);

    expect(node(doc, '1711528915811').config).toMatchObject({
      datasetIds: ['6a5e1f0c-93b4-4c42-9a1d-6f4c2b8e7d10', '0d2c4e6f-8a1b-4c3d-9e5f-7a8b9c0d1e2f'],
      topK: 5,
      scoreThresholdEnabled: true,
      scoreThreshold: 0.35,
      rerankEnabled: true,
      rerankProvider: 'cohere',
      rerankModel: 'rerank-multilingual-v3.0',
      metadataFilterMode: 'manual',
      metadataConditions: [{ name: 'language', operator: 'is', value: 'en' }],
    });

    const llm = node(doc, '1711528919501').config;
    expect(llm).toMatchObject({
      contextEnabled: true,
      context: ['1711528915811', 'result'],
      memoryEnabled: true,
      memoryWindowEnabled: true,
      memoryWindow: 8,
      retryEnabled: true,
      maxRetries: 2,
      retryIntervalMs: 1500,
      model: { provider: 'openai', name: 'gpt-4o', params: { temperature: 0.3, top_p: 0.9, max_tokens: 1024 } },
    });
    expect((llm.prompts as { text: string }[])[0].text).toContain('{{#context#}}');
  });

  it('keeps conversation and environment variables, the assigner and the note', () => {
    expect(doc.variables.conversation.map((v) => [v.name, v.type, v.value])).toEqual([
      ['user_name', 'string', ''],
      ['turns', 'number', 0],
    ]);
    expect(doc.variables.env).toEqual([
      { id: '2b7c9e41-5d3f-4a8b-b6c7-d8e9f0a1b2c3', name: 'SUPPORT_EMAIL', type: 'string', value: 'help@example.com', description: 'Where to send people the assistant cannot help' },
      { id: '7e8f9a0b-1c2d-4e3f-8a9b-0c1d2e3f4a5b', name: 'OPENAI_KEY', type: 'secret', description: '' },
    ]);
    expect(node(doc, '1711528923000').config.assignments).toEqual([{ target: ['conversation', 'turns'], operation: '+=', source: 'constant', selector: [], value: 1 }]);
    const note = node(doc, '1711528930000');
    expect(note.config).toMatchObject({ text: 'Product questions go to the help centre.\nEverything else is small talk.', theme: 'blue', showAuthor: true, author: 'Lin' });
    expect([note.width, note.height]).toEqual([240, 120]);
  });
});

describe('importDifyDsl: workflow with if-else, code, http-request, templates, iteration and an aggregator', () => {
  const r = imported(workflowYaml);
  const doc = r.document;

  it('maps every node and validates without reference errors', () => {
    expect(doc.mode).toBe('workflow');
    expect(r.unmapped).toEqual([]);
    expect(doc.nodes).toHaveLength(12);
    expect(doc.edges).toHaveLength(13);
    expect(referenceIssues(doc)).toEqual([]);
    expectValidAndRoundTrips(doc);
  });

  it('keeps positions, the iteration with its children (relative) and its size', () => {
    expect(node(doc, '1718000000003').position).toEqual({ x: 638, y: 300 });
    const iteration = node(doc, '1718000000005');
    expect([iteration.width, iteration.height]).toEqual([520, 220]);
    expect(iteration.config).toMatchObject({ iterator: ['1718000000004', 'items'], output: ['1718000000007', 'output'], parallel: true, maxParallelism: 4, errorMode: 'continue-on-error' });
    expect(node(doc, '1718000000005start')).toMatchObject({ kind: 'iteration-start', parentId: '1718000000005', position: { x: 24, y: 68 } });
    expect(node(doc, '1718000000007')).toMatchObject({ parentId: '1718000000005', position: { x: 128, y: 68 } });
    expect(node(doc, '1718000000007').config.inputs).toEqual([
      { name: 'item', selector: ['1718000000005', 'item'] },
      { name: 'index', selector: ['1718000000005', 'index'] },
    ]);
  });

  it('keeps the branches: if-else case ids and else, and the fail branch', () => {
    const cases = node(doc, '1718000000003').config.cases as { id: string; logicalOperator: string; conditions: unknown[] }[];
    expect(cases.map((c) => [c.id, c.logicalOperator, c.conditions.length])).toEqual([
      ['true', 'and', 1],
      ['5a8b2c7d-1e3f-4a6b-9c0d-2e4f6a8b0c1d', 'or', 2],
    ]);
    expect(cases[1].conditions[1]).toMatchObject({ selector: ['1718000000002', 'status_code'], operator: '≥', value: '300' });
    expect(handles(doc, '1718000000003')).toEqual(['5a8b2c7d-1e3f-4a6b-9c0d-2e4f6a8b0c1d', 'false', 'true']);
    expect(handles(doc, '1718000000002')).toEqual(['fail-branch', 'source']);
  });

  it('maps the http request, code, start fields and aggregator', () => {
    expect(node(doc, '1718000000002').config).toMatchObject({
      method: 'get',
      url: '{{#1718000000001.url#}}',
      headers: [
        { key: 'Accept', value: 'application/json' },
        { key: 'X-Run', value: '{{#sys.workflow_run_id#}}' },
      ],
      params: [
        { key: 'topic', value: '{{#1718000000001.topic#}}' },
        { key: 'limit', value: '{{#1718000000001.limit#}}' },
      ],
      authType: 'bearer',
      token: '{{#env.API_TOKEN#}}',
      connectTimeoutSeconds: 5,
      readTimeoutSeconds: 30,
      writeTimeoutSeconds: 20,
      errorStrategy: 'fail-branch',
      retryEnabled: true,
      retryIntervalMs: 500,
    });
    expect(node(doc, '1718000000004').config).toMatchObject({
      language: 'javascript',
      inputs: [
        { name: 'body', selector: ['1718000000002', 'body'] },
        { name: 'limit', selector: ['1718000000001', 'limit'] },
      ],
      outputs: [
        { name: 'count', type: 'number' },
        { name: 'items', type: 'array[string]' },
      ],
    });
    const fields = node(doc, '1718000000001').config.variables as { name: string; type: string; max_length?: number; options: string[] }[];
    expect(fields.map((f) => [f.name, f.type])).toEqual([
      ['url', 'text'],
      ['topic', 'select'],
      ['limit', 'number'],
      ['notes', 'paragraph'],
    ]);
    expect(fields[0].max_length).toBe(512);
    expect(fields[1].options).toEqual(['news', 'releases']);
    expect(node(doc, '1718000000010').config).toMatchObject({ outputType: 'string', selectors: [['1718000000011', 'output'], ['1718000000008', 'output'], ['1718000000009', 'output']] });
    expect(doc.variables.env.map((v) => [v.name, v.type])).toEqual([
      ['API_TOKEN', 'secret'],
      ['PAGE_SIZE', 'number'],
    ]);
  });
});

describe('importDifyDsl: a workflow with node types we do not have', () => {
  const r = imported(unknownYaml);
  const doc = r.document;

  it('lists the unmapped nodes and drops them with their edges', () => {
    expect(r.unmapped).toEqual([
      { id: '1720000000002', type: 'datasource', title: 'Read the report' },
      { id: '1720000000009', type: 'loop-end', title: 'Stop' },
    ]);
    expect(doc.nodes.map((n) => n.id)).not.toContain('1720000000002');
    expect(doc.edges.some((e) => ['1720000000002', '1720000000009'].includes(e.source) || ['1720000000002', '1720000000009'].includes(e.target))).toBe(false);
    expect(r.warnings).toContainEqual({ key: 'warnings.edgesDropped', params: { count: 3 } });
  });

  it('warns about what it kept only in part', () => {
    const keys = r.warnings.map((w) => w.key);
    expect(keys).toEqual(expect.arrayContaining(['warnings.jinjaPrompt', 'warnings.toolNeedsSetup']));
  });

  it('keeps a python3 code node as Python, its body unchanged and its main found', () => {
    expect(r.warnings.map((w) => w.key)).not.toContain('warnings.codeLanguage');
    const code = node(doc, '1720000000005');
    expect(code.config).toMatchObject({ language: 'python3', code: 'def main(text: str) -> dict:\n    return {"result": text.strip()}' });
    expect(registry.validateFlow(doc).filter((i) => i.nodeId === code.id).map((i) => i.key)).not.toContain('issues.mainMissingPython');
  });

  it('validates, and the only broken references point at the dropped node', () => {
    expectValidAndRoundTrips(doc);
    const broken = referenceIssues(doc);
    expect(broken.map((i) => [i.nodeId, i.params?.reference])).toEqual([['1720000000003', '1720000000002.text']]);
  });

  it('maps the extractor, tool, loop and structured output', () => {
    expect(node(doc, '1720000000008').config).toMatchObject({
      query: ['1720000000003', 'text'],
      reasoningMode: 'prompt',
      parameters: [
        { name: 'score', type: 'number', required: true },
        { name: 'area', type: 'string', options: ['finance', 'legal', 'other'] },
        { name: 'needs_review', type: 'boolean' },
      ],
    });
    expect(node(doc, '1720000000004').config).toMatchObject({
      toolId: '',
      functionId: 'tavily_search',
      params: [
        { name: 'query', source: 'text', text: 'news about {{#1720000000008.area#}}' },
        { name: 'max_results', source: 'text', text: '5' },
        { name: 'include_answer', source: 'variable', selector: ['1720000000008', 'needs_review'] },
      ],
    });
    expect(node(doc, '1720000000006').config).toMatchObject({
      loopVariables: [{ name: 'attempts', type: 'number', source: 'constant', value: 0 }],
      breakConditions: [{ selector: ['1720000000006', 'attempts'], operator: '≥', value: '3' }],
      maxCount: 5,
    });
    expect(node(doc, '1720000000007')).toMatchObject({ parentId: '1720000000006', config: { assignments: [{ target: ['1720000000006', 'attempts'], operation: '+=', value: 1 }] } });
    expect(node(doc, '1720000000003').config).toMatchObject({
      structuredOutputEnabled: true,
      structuredOutput: [
        { name: 'bullets', type: 'array[string]', required: true },
        { name: 'risk', type: 'number', required: false },
      ],
      errorStrategy: 'default-value',
      defaultValues: [{ name: 'text', value: 'No summary' }],
      model: { provider: 'deepseek', params: { temperature: 0.2, stop: ['###'] } },
    });
  });
});

describe('importDifyDsl: older files and refusals', () => {
  const legacy = `
app: { mode: workflow, name: Legacy }
kind: app
version: 0.1.0
workflow:
  graph:
    nodes:
    - { id: start, data: { type: start, title: Start, variables: [{ variable: q, label: Q, type: text-input, required: true }] }, position: { x: 0, y: 0 } }
    - { id: check.1, data: { type: if-else, title: Check, logical_operator: and, conditions: [{ id: c1, variable_selector: [start, q], comparison_operator: not empty, value: '' }] }, position: { x: 300, y: 0 } }
    - { id: join, data: { type: variable-assigner, title: Join, output_type: string, variables: [[start, q]] }, position: { x: 600, y: 0 } }
    - { id: end, data: { type: end, title: End, outputs: [{ variable: out, value_selector: [join, output] }] }, position: { x: 900, y: 0 } }
    edges:
    - { source: start, target: check.1, sourceHandle: source, targetHandle: target }
    - { source: check.1, target: join, sourceHandle: 'true', targetHandle: target }
    - { source: check.1, target: end, sourceHandle: unknown-case, targetHandle: target }
    - { source: join, target: end, sourceHandle: source, targetHandle: target }
`;

  it('reads the pre-case if-else, the old aggregator name, and renames ids it cannot use', () => {
    const r = imported(legacy);
    const ids = r.document.nodes.map((n) => n.id);
    expect(ids).toEqual(['start', 'check_1', 'join', 'end']);
    expect(r.warnings).toContainEqual({ key: 'warnings.idChanged', params: { from: 'check.1', to: 'check_1' } });
    expect(node(r.document, 'check_1').config.cases).toEqual([{ id: 'true', logicalOperator: 'and', conditions: [{ id: 'c1', selector: ['start', 'q'], operator: 'not empty', value: '' }] }]);
    expect(node(r.document, 'join')).toMatchObject({ kind: 'variable-aggregator', config: { selectors: [['start', 'q']] } });
    expect(r.document.edges.map((e) => `${e.source}/${e.sourceHandle}>${e.target}`)).toEqual(['start/source>check_1', 'check_1/true>join', 'join/source>end']);
    expect(r.warnings).toContainEqual({ key: 'warnings.edgeHandleUnknown', params: { node: 'Check', handle: 'unknown-case' } });
    expect(referenceIssues(r.document)).toEqual([]);
  });

  it('refuses app modes without a flow, other files and broken YAML with clear keys', () => {
    expect(importDifyDsl('app: { mode: agent-chat }\nkind: app\nworkflow: { graph: { nodes: [] } }', registry)).toEqual({ ok: false, errors: [{ key: 'errors.modeUnsupported', params: { mode: 'agent-chat' } }] });
    expect(importDifyDsl('app: { mode: workflow }\nkind: app\nworkflow: { graph: {} }', registry)).toEqual({ ok: false, errors: [{ key: 'errors.graphMissing' }] });
    expect(importDifyDsl(chatflowYaml, registry, { mode: 'workflow' })).toEqual({ ok: false, errors: [{ key: 'errors.modeMismatch', params: { mode: 'chatflow', expected: 'workflow' } }] });
    expect(importDifyDsl('name: something else', registry)).toEqual({ ok: false, errors: [{ key: 'errors.formatUnknown' }] });
    const broken = importDifyDsl('app:\n  mode: workflow\n    name: [', registry);
    expect(broken.ok).toBe(false);
    if (!broken.ok) expect(broken.errors[0]).toMatchObject({ key: 'errors.yamlInvalid', params: { line: expect.any(Number) } });
    expect(importDifyDsl('- just\n- a list', registry)).toEqual({ ok: false, errors: [{ key: 'errors.notAnObject' }] });
  });

  it('drops conversation variables from a workflow with a warning', () => {
    const text = legacy.replace('workflow:\n', 'workflow:\n  conversation_variables: [{ id: v1, name: topic, value_type: string, value: "" }]\n');
    expect(imported(text).warnings).toContainEqual({ key: 'warnings.conversationVariablesDropped', params: { count: 1 } });
  });

  it('keeps what fits when a setting does not, and flags system variables we do not have', () => {
    const text = `
app: { mode: workflow, name: Odd }
kind: app
workflow:
  graph:
    nodes:
    - { id: start, data: { type: start, title: Start, variables: [] }, position: { x: 0, y: 0 } }
    - { id: call, data: { type: http-request, title: Call, method: FETCH, url: 'https://example.com/{{#sys.workflow_id#}}' }, position: { x: 300, y: 0 } }
    edges: [{ source: start, target: call, sourceHandle: source, targetHandle: target }]
`;
    const r = imported(text);
    expect(node(r.document, 'call').config).toMatchObject({ method: 'get', url: 'https://example.com/{{#sys.workflow_id#}}' });
    expect(r.warnings).toEqual([
      { key: 'warnings.sysVariableUnknown', params: { node: 'Call', name: 'workflow_id', nodeId: 'call' } },
      { key: 'warnings.fieldDropped', params: { node: 'Call', field: 'method', nodeId: 'call' } },
    ]);
  });

  it('importFlowFile tells Dify files from ours', () => {
    const dify = importFlowFile(workflowYaml, registry);
    expect(dify.ok && dify.document.nodes.length).toBe(12);
    const ours = importFlowFile(exportFlowYaml(registry.createFlow('chatflow'), { name: 'Mine' }), registry);
    expect(ours).toMatchObject({ ok: true, unmapped: [], warnings: [], app: { name: 'Mine', mode: 'chatflow' } });
  });
});
