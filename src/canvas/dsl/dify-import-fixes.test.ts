import { describe, expect, it } from 'vitest';
import type { FlowDocument } from '../../../schemas/flow';
import { createNodeRegistry } from '../../plugin-sdk';
import { builtinPlugins } from '../builtin-plugins';
import { computeChecklist } from '../checklist';
import { importDifyDsl } from './dify-import';
import artifact from './fixtures/dify-real/artifact.yml?raw';
import memoryTest from './fixtures/dify-real/memory-test.yml?raw';
import jinaReader from './fixtures/dify-real/jina-reader-jinja.yml?raw';
import courseDemo from './fixtures/dify-real/course-demo.yml?raw';
import agentTools from './fixtures/dify-real/agent-tool-calls.yml?raw';
import paymentDemo from './fixtures/dify-real/payment-demo.yml?raw';
import documentChat from './fixtures/dify-real/document-chat.yml?raw';

/** Issue 26's import fixes, on the real exports that showed each problem. */
const registry = createNodeRegistry(builtinPlugins);

function imported(text: string) {
  const r = importDifyDsl(text, registry);
  if (!r.ok) throw new Error(`import failed: ${JSON.stringify(r.errors)}`);
  return r;
}
const node = (doc: FlowDocument, id: string) => {
  const n = doc.nodes.find((x) => x.id === id);
  if (!n) throw new Error(`no node ${id}`);
  return n;
};
const prompts = (doc: FlowDocument, id: string) => node(doc, id).config.prompts as { role: string; text: string }[];

describe("memory's query_prompt_template", () => {
  it('becomes the last user prompt, so the question is asked', () => {
    const doc = imported(artifact).document;
    expect(prompts(doc, 'llm').at(-1)).toEqual({ role: 'user', text: '{{#sys.query#}}' });
  });

  it("is sys.query when memory is on without a template (Dify's default), and not doubled", () => {
    const doc = imported(memoryTest).document;
    expect(prompts(doc, '1726647043239').map((p) => p.role)).toEqual(['system', 'user']);
    expect(prompts(doc, '1726647043239')[1].text).toBe('{{#sys.query#}}');
    // Already asks the question itself: kept as it is.
    expect(prompts(doc, '1726647065155').filter((p) => p.text.includes('{{#sys.query#}}'))).toHaveLength(1);
  });
});

describe('old-style iterations (start_node_id, isIterationStart)', () => {
  it('get an iteration start connected to their first step', () => {
    const doc = imported(jinaReader).document;
    const start = doc.nodes.find((n) => n.kind === 'iteration-start' && n.parentId === '1716911333343');
    expect(start).toBeDefined();
    expect(doc.edges).toContainEqual(expect.objectContaining({ source: start!.id, target: '1720758285748' }));
  });
});

describe('vision without a file selector', () => {
  it("reads the user's files (Dify's default) and says so", () => {
    const r = imported(courseDemo);
    expect(node(r.document, '1728218323079').config).toMatchObject({ visionEnabled: true, visionFiles: ['sys', 'files'] });
    expect(r.warnings).toContainEqual({ key: 'warnings.visionFilesAssumed', params: { node: 'LLM生成课程', nodeId: '1728218323079' } });
  });
});

describe("Dify's agent node", () => {
  it("maps to our agent: model, instructions, query, tools to pick", () => {
    const r = imported(agentTools);
    expect(r.unmapped).toEqual([]);
    const agent = node(r.document, '1739781971571');
    expect(agent.kind).toBe('agent');
    expect(agent.config).toMatchObject({
      model: { provider: 'openai', name: 'gpt-4o-mini' },
      instructions: '根据用户的需求，调用不同工具，回复用的内容。',
      query: ['sys', 'query'],
      tools: [
        { type: 'tool', providerId: '', name: 'current_time', enabled: true },
        { type: 'tool', providerId: '', name: 'ddgo_search', enabled: true },
        { type: 'tool', providerId: '', name: 'weather', enabled: false },
      ],
    });
    expect(r.warnings.map((w) => w.key)).toContain('warnings.toolNeedsSetup');
  });
});

describe('system variables', () => {
  it('knows sys.dialogue_count', () => {
    const r = imported(paymentDemo);
    expect(r.warnings.filter((w) => w.key === 'warnings.sysVariableUnknown')).toEqual([]);
  });
});

describe('knowledge-base ids from Dify', () => {
  const r = imported(documentChat);
  it('are flagged at import, once per node even when titles repeat', () => {
    const flagged = r.warnings.filter((w) => w.key === 'warnings.knowledgeBaseToPick');
    expect(flagged.map((w) => w.params?.nodeId)).toEqual(['1720800425522', '1720800677771', '1720800734485', '1720839679262']);
  });
  it('are checklist errors naming the node until a base of the workspace is picked', () => {
    const entries = computeChecklist(r.document, registry, undefined, { knowledgeBases: [{ id: 'kb-1' }] }).filter((e) => e.key === 'checklist.knowledgeUnknown');
    expect(entries.map((e) => [e.nodeId, e.severity])).toContainEqual(['1720800425522', 'error']);
    const picked = { ...r.document, nodes: r.document.nodes.map((n) => (n.kind === 'knowledge-retrieval' ? { ...n, config: { ...n.config, datasetIds: ['kb-1'] } } : n)) };
    expect(computeChecklist(picked, registry, undefined, { knowledgeBases: [{ id: 'kb-1' }] }).filter((e) => e.key === 'checklist.knowledgeUnknown')).toEqual([]);
  });
});

describe("Dify's list operator and document extractor", () => {
  it('map to our kinds with their filters, limit and file variable', async () => {
    const kimi = (await import('./fixtures/dify-real/simple-kimi.yml?raw')).default;
    const r = imported(kimi);
    expect(r.unmapped).toEqual([]);
    expect(node(r.document, '1729777763543')).toMatchObject({
      kind: 'list-operator',
      config: { variable: ['sys', 'files'], filterEnabled: true, filters: [{ key: 'type', operator: 'in', value: 'document' }], limitEnabled: true, limit: 2, sortEnabled: false },
    });
    expect(node(r.document, '1729777092216')).toMatchObject({ kind: 'document-extractor', config: { variable: ['1729777763543', 'first_record'] } });
  });
});

describe("Dify's file sub-conditions in an if-else", () => {
  it('import as file tests on the list of files, with no warning and nothing for the checklist', async () => {
    const kimi = (await import('./fixtures/dify-real/simple-kimi.yml?raw')).default;
    const r = imported(kimi);
    expect(r.warnings.filter((w) => w.key.startsWith('warnings.fileCondition'))).toEqual([]);
    const branch = node(r.document, '1729781189640');
    expect(branch.config.cases).toMatchObject([
      { id: 'true', conditions: [{ selector: ['sys', 'files'], operator: 'empty' }] },
      { conditions: [{ selector: ['sys', 'files'], operator: 'contains', value: '', fileConditions: { logicalOperator: 'and', conditions: [{ key: 'type', operator: 'in', value: 'image' }] } }] },
      { conditions: [{ selector: ['sys', 'files'], operator: 'contains', value: '', fileConditions: { logicalOperator: 'and', conditions: [{ key: 'type', operator: 'in', value: 'document' }] } }] },
    ]);
    expect(computeChecklist(r.document, registry).filter((e) => e.nodeId === '1729781189640')).toEqual([]);
  });

  it('import "not contains" and "all of" as "contains" (as Dify runs them) with a warning, and drop tests on properties Weft lacks', () => {
    const dsl = `app:\n  mode: workflow\n  name: files\nkind: app\nversion: 0.1.5\nworkflow:\n  graph:\n    edges: []\n    nodes:\n    - id: s\n      data: { type: start, title: Start, variables: [{ variable: docs, type: file-list, label: docs }] }\n    - id: b\n      data:\n        type: if-else\n        title: Branch\n        cases:\n        - case_id: 'true'\n          logical_operator: and\n          conditions:\n          - id: c1\n            comparison_operator: not contains\n            variable_selector: [s, docs]\n            value: ''\n            sub_variable_condition:\n              logical_operator: or\n              conditions:\n              - { id: k1, key: extension, comparison_operator: is, value: pdf }\n              - { id: k2, key: related_id, comparison_operator: is, value: x }\n`;
    const r = imported(dsl);
    expect(r.warnings.map((w) => w.key)).toEqual(expect.arrayContaining(['warnings.fileConditionOperator', 'warnings.fileConditionDropped']));
    expect(node(r.document, 'b').config.cases).toMatchObject([
      { conditions: [{ operator: 'contains', fileConditions: { logicalOperator: 'or', conditions: [{ key: 'extension', operator: 'is', value: 'pdf' }] } }] },
    ]);
  });
});
