import { describe, expect, it } from 'vitest';
import {
  AppFeatures,
  FEATURE_COUNT_MESSAGE,
  defaultAppFeatures,
  featuresOf,
  shownSuggestedQuestions,
  createEdge,
  createEmptyFlow,
  withDefaultModel,
  FLOW_LIMITS,
  FLOW_MODES,
  FlowDocument,
  formatTextReference,
  isSelector,
  mapTextReferences,
  matchesValueType,
  parseTextReferences,
  replaceReferences,
  selectorNamespace,
  systemVariables,
  VALUE_TYPES,
  type FlowDocumentInput,
} from './flow';

const n = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  kind: 'echo',
  kindVersion: 1,
  title: id,
  position: { x: 0, y: 0 },
  config: {},
  ...extra,
});

const doc = (over: Partial<FlowDocumentInput> = {}): FlowDocumentInput => ({
  schemaVersion: 1,
  mode: 'workflow',
  nodes: [n('a'), n('b')],
  edges: [createEdge('a', 'b')],
  ...over,
});

/** The messages of a refused document. */
const problems = (input: unknown) => {
  const r = FlowDocument.safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('FlowDocument', () => {
  it('accepts a document and fills the defaults', () => {
    const parsed = FlowDocument.parse(doc());
    expect(parsed.variables).toEqual({ env: [], conversation: [] });
    expect(parsed.notes).toBe('');
    expect(parsed.edges[0]).toEqual({ id: 'a-source-b-target', source: 'a', sourceHandle: 'source', target: 'b', targetHandle: 'target' });
  });

  it('refuses view state and unknown fields', () => {
    expect(problems(doc({ nodes: [n('a', { selected: true }), n('b')] }))).toEqual([expect.stringMatching(/^nodes\.0: Unrecognized key: "selected"/)]);
    expect(problems(doc({ nodes: [n('a', { data: { _runningStatus: 'ok' } }), n('b')] }))).toHaveLength(1);
    expect(problems({ ...doc(), viewport: { x: 0, y: 0, zoom: 1 } })).toHaveLength(1);
  });

  it('refuses a bad mode, schema version, ids, kinds and coordinates', () => {
    expect(problems(doc({ mode: 'chat' as 'workflow' }))).toHaveLength(1);
    expect(problems({ ...doc(), schemaVersion: 2 })).toHaveLength(1);
    expect(problems(doc({ nodes: [n('a.b')], edges: [] }))).toHaveLength(1);
    expect(problems(doc({ nodes: [n('sys')], edges: [] }))).toEqual(['nodes.0.id: sys, env and conversation are reserved and cannot be node ids']);
    expect(problems(doc({ nodes: [n('a', { kind: 'If Else' })], edges: [] }))).toHaveLength(1);
    expect(problems(doc({ nodes: [n('a', { kindVersion: 0 })], edges: [] }))).toHaveLength(1);
    expect(problems(doc({ nodes: [n('a', { position: { x: Number.NaN, y: 0 } })], edges: [] }))).toHaveLength(1);
  });

  it('refuses duplicate node ids, edges to missing nodes, self loops and duplicate connections', () => {
    expect(problems(doc({ nodes: [n('a'), n('b'), n('a')] }))).toEqual(['nodes.2.id: Duplicate node id "a"']);
    expect(problems(doc({ edges: [createEdge('a', 'zz')] }))).toEqual(['edges.0.target: Edge "a-source-zz-target" ends at a missing node "zz"']);
    expect(problems(doc({ edges: [createEdge('zz', 'a')] }))).toEqual(['edges.0.source: Edge "zz-source-a-target" starts at a missing node "zz"']);
    expect(problems(doc({ edges: [createEdge('a', 'a')] }))).toEqual(['edges.0: Edge "a-source-a-target" connects node "a" to itself']);
    expect(problems(doc({ edges: [createEdge('a', 'b'), { ...createEdge('a', 'b'), id: 'other' }] }))).toEqual([
      'edges.1: Duplicate connection "a/source → b/target"',
    ]);
    expect(problems(doc({ edges: [createEdge('a', 'b'), createEdge('a', 'b')] }))).toHaveLength(2);
  });

  it('checks containers: the parent exists, no cycles, edges stay inside one container', () => {
    expect(problems(doc({ nodes: [n('a'), n('b', { parentId: 'x' })], edges: [] }))).toEqual(['nodes.1.parentId: Node "b" is inside a missing node "x"']);
    expect(problems(doc({ nodes: [n('a', { parentId: 'a' })], edges: [] }))).toEqual(['nodes.0.parentId: Node "a" cannot contain itself']);
    expect(problems(doc({ nodes: [n('a', { parentId: 'b' }), n('b', { parentId: 'a' })], edges: [] }))).toHaveLength(2);
    expect(problems(doc({ nodes: [n('a'), n('b', { parentId: 'a' })] }))).toEqual(['edges.0: Edge "a-source-b-target" crosses a container boundary']);
    expect(problems(doc({ nodes: [n('loop'), n('a', { parentId: 'loop' }), n('b', { parentId: 'loop' })] }))).toEqual([]);
  });

  it('checks variables: types, defaults that fit, unique ids and names, conversation only in chat modes', () => {
    const env = [
      { id: 'e1', name: 'API_URL', type: 'string', value: 'https://x' },
      { id: 'e2', name: 'LIMIT', type: 'number', value: 3 },
      { id: 'e3', name: 'TOKEN', type: 'secret', value: 's3cret' },
      { id: 'e4', name: 'KEEP', type: 'secret' },
    ];
    const conversation = [
      { id: 'c1', name: 'topic', type: 'string', value: '' },
      { id: 'c2', name: 'seen', type: 'array[object]', value: [{ a: 1 }] },
      { id: 'c3', name: 'flag', type: 'boolean', value: false },
    ];
    expect(problems(doc({ mode: 'chatflow', variables: { env, conversation } as never }))).toEqual([]);
    expect(problems(doc({ variables: { env: [{ id: 'e', name: 'N', type: 'number', value: '3' }] } as never }))).toHaveLength(1);
    expect(problems(doc({ variables: { env: [{ id: 'e', name: '1bad', type: 'string', value: '' }] } as never }))).toHaveLength(1);
    expect(problems(doc({ variables: { env: [{ id: 'e', name: 'S', type: 'file', value: '' }] } as never }))).toHaveLength(1);
    expect(problems(doc({ mode: 'chatflow', variables: { conversation: [{ id: 'c', name: 'x', type: 'array[number]', value: [1, 'a'] }] } as never }))).toEqual([
      'variables.conversation.0.value: The default value does not fit the type array[number]',
    ]);
    expect(problems(doc({ variables: { env: [env[0], { ...env[1], name: 'API_URL' }, { ...env[2], id: 'e1' }] } as never }))).toEqual([
      'variables.env.2.id: Duplicate env variable id "e1"',
      'variables.env.1.name: Duplicate env variable name "API_URL"',
    ]);
    expect(problems(doc({ variables: { conversation } as never }))).toEqual(['variables.conversation: A workflow has no conversation variables']);
  });

  it('keeps the limits', () => {
    const many = Array.from({ length: FLOW_LIMITS.maxNodes + 1 }, (_, i) => n(`n${i}`));
    expect(problems(doc({ nodes: many, edges: [] }))).toEqual([`nodes: A flow holds at most ${FLOW_LIMITS.maxNodes} nodes`]);
  });
});

describe('createEmptyFlow', () => {
  it.each(FLOW_MODES)('makes a valid %s flow connected left to right', (mode) => {
    const flow = createEmptyFlow(mode);
    expect(FlowDocument.parse(flow)).toEqual(flow);
    expect(flow.mode).toBe(mode);
    expect(flow.nodes[0]).toMatchObject({ id: 'start', kind: 'start', kindVersion: 1, title: '', config: {} });
    expect(flow.edges).toHaveLength(flow.nodes.length - 1);
  });

  it('starts workflow with start → end, chatflow with start → llm → answer, agents with start → agent → answer', () => {
    const kinds = (m: (typeof FLOW_MODES)[number]) => createEmptyFlow(m).nodes.map((x) => x.kind);
    expect(kinds('workflow')).toEqual(['start', 'end']);
    expect(kinds('chatflow')).toEqual(['start', 'llm', 'answer']);
    expect(kinds('agent')).toEqual(['start', 'agent', 'answer']);
    expect(kinds('agent_team')).toEqual(['start', 'agent', 'answer']);
  });

  it('wires the reply to the model and gives the model nodes the default model', () => {
    const chat = createEmptyFlow('chatflow', { defaultModel: { provider: 'openai', name: 'gpt-4o-mini' } });
    expect(chat.nodes.map((n) => [n.id, n.config])).toEqual([
      ['start', {}],
      ['llm', { prompts: [{ role: 'system', text: '' }, { role: 'user', text: '{{#sys.query#}}' }], model: { provider: 'openai', name: 'gpt-4o-mini' } }],
      ['answer', { answer: '{{#llm.text#}}' }],
    ]);
    const agent = createEmptyFlow('agent');
    expect(agent.nodes.map((n) => n.config)).toEqual([{}, {}, { answer: '{{#agent.text#}}' }]);
  });

  it('sets a default model only where none is chosen', () => {
    const choice = { provider: 'openai', name: 'gpt-4o' };
    expect(withDefaultModel({ model: { provider: '', name: '', mode: 'chat' } }, choice)).toEqual({ model: { provider: 'openai', name: 'gpt-4o', mode: 'chat' } });
    const chosen = { model: { provider: 'anthropic', name: 'claude' } };
    expect(withDefaultModel(chosen, choice)).toBe(chosen);
    expect(withDefaultModel({ text: 'x' }, choice)).toEqual({ text: 'x' });
    expect(withDefaultModel({ model: { provider: '', name: '' } }, null)).toEqual({ model: { provider: '', name: '' } });
  });

  it('takes versions, configs and titles', () => {
    const flow = createEmptyFlow('workflow', {
      nodeDefaults: (k) => (k === 'start' ? { kindVersion: 3, config: { variables: [] } } : undefined),
      titles: { end: 'Done' },
    });
    expect(flow.nodes.map((x) => [x.kindVersion, x.config, x.title])).toEqual([
      [3, { variables: [] }, ''],
      [1, {}, 'Done'],
    ]);
  });
});

describe('references', () => {
  it('parses {{#nodeId.path#}} with offsets', () => {
    const text = 'Q: {{#sys.query#}}, A: {{#1711528914102.text#}} {{#llm-2.usage.total_tokens#}}';
    expect(parseTextReferences(text)).toEqual([
      { nodeId: 'sys', path: ['query'], selector: ['sys', 'query'], start: 3, end: 18, text: '{{#sys.query#}}' },
      { nodeId: '1711528914102', path: ['text'], selector: ['1711528914102', 'text'], start: text.indexOf('{{#1711'), end: text.indexOf('{{#1711') + 24, text: '{{#1711528914102.text#}}' },
      {
        nodeId: 'llm-2',
        path: ['usage', 'total_tokens'],
        selector: ['llm-2', 'usage', 'total_tokens'],
        start: text.indexOf('{{#llm-2'),
        end: text.length,
        text: '{{#llm-2.usage.total_tokens#}}',
      },
    ]);
    for (const r of parseTextReferences(text)) expect(text.slice(r.start, r.end)).toBe(r.text);
  });

  it('ignores what is not a reference', () => {
    expect(parseTextReferences('{{#a#}} {{#a.#}} {{ #a.b# }} {{a.b}} {{#a.1b#}} {#a.b#} {{#a b.c#}}')).toEqual([]);
  });

  it('replaces node ids for paste, leaving namespaces and unknown ids', () => {
    const text = '{{#a.text#}}+{{#b.x.y#}}+{{#sys.query#}}+{{#c.z#}}';
    expect(replaceReferences(text, { a: 'a2', b: 'b2', sys: 'nope' })).toBe('{{#a2.text#}}+{{#b2.x.y#}}+{{#sys.query#}}+{{#c.z#}}');
    expect(replaceReferences(text, new Map([['c', 'c9']]))).toBe('{{#a.text#}}+{{#b.x.y#}}+{{#sys.query#}}+{{#c9.z#}}');
    expect(replaceReferences('no refs', { a: 'b' })).toBe('no refs');
    expect(replaceReferences('{{#toString.x#}}', {})).toBe('{{#toString.x#}}');
  });

  it('maps references with a function', () => {
    expect(mapTextReferences('x {{#a.old#}} y', (r) => (r.path[0] === 'old' ? [r.nodeId, 'new'] : undefined))).toBe('x {{#a.new#}} y');
    expect(formatTextReference(['env', 'KEY'])).toBe('{{#env.KEY#}}');
  });

  it('recognises selectors and their namespaces', () => {
    expect(isSelector(['llm1', 'text'])).toBe(true);
    expect(isSelector(['llm1'])).toBe(false);
    expect(isSelector(['llm1', 'has space'])).toBe(false);
    expect(isSelector(['a', 1])).toBe(false);
    expect(selectorNamespace(['sys', 'query'])).toBe('sys');
    expect(selectorNamespace(['env', 'K'])).toBe('env');
    expect(selectorNamespace(['conversation', 'x'])).toBe('conversation');
    expect(selectorNamespace(['n1', 'x'])).toBe('node');
  });

  it('lists the system variables of a mode', () => {
    expect(systemVariables('workflow').map((v) => v.name)).toEqual(['files', 'user_id', 'app_id', 'workflow_run_id']);
    expect(systemVariables('chatflow').map((v) => v.name)).toEqual(['query', 'files', 'conversation_id', 'dialogue_count', 'user_id', 'app_id', 'workflow_run_id']);
  });
});

describe('value types', () => {
  it('has the scalars and an array of each', () => {
    expect(VALUE_TYPES).toEqual([
      'string', 'number', 'boolean', 'object', 'file',
      'array[string]', 'array[number]', 'array[boolean]', 'array[object]', 'array[file]',
    ]);
  });

  it('checks values against types', () => {
    expect(matchesValueType('x', 'string')).toBe(true);
    expect(matchesValueType(Number.POSITIVE_INFINITY, 'number')).toBe(false);
    expect(matchesValueType([], 'array[file]')).toBe(true);
    expect(matchesValueType([{ url: '/f' }], 'array[file]')).toBe(true);
    expect(matchesValueType([{ name: 'f' }], 'array[file]')).toBe(false);
    expect(matchesValueType([1], 'object')).toBe(false);
    expect(matchesValueType(null, 'object')).toBe(false);
  });
});

describe('app features', () => {
  it('default when a document names none, and refuse a random-display count above the number of questions', () => {
    expect(featuresOf({})).toMatchObject({ opening_statement: '', suggested_questions: [], suggested_questions_random_count: 0, citations: true, feedback: true });
    expect(AppFeatures.safeParse({ suggested_questions: ['a', 'b'], suggested_questions_random_count: 2 }).success).toBe(true);
    expect(AppFeatures.safeParse({ suggested_questions: [], suggested_questions_random_count: 0 }).success).toBe(true);
    const r = AppFeatures.safeParse({ suggested_questions: ['a', 'b'], suggested_questions_random_count: 3 });
    expect(r.success).toBe(false);
    expect(r.error?.issues).toMatchObject([{ path: ['suggested_questions_random_count'], message: FEATURE_COUNT_MESSAGE }]);
    // The flow document refuses it too (a draft save answers VALIDATION-1000).
    const doc = { ...createEmptyFlow('chatflow'), features: { suggested_questions: ['a'], suggested_questions_random_count: 2 } };
    expect(FlowDocument.safeParse(doc).success).toBe(false);
  });

  it('read a stored document whose features no longer validate: the bad fields fall back to their defaults, the rest stay', () => {
    // Published versions are stored as saved; an older rule or a hand-edited row must not fail every chat.
    const f = featuresOf({ features: { opening_statement: 'Hi', suggested_questions: ['a'], suggested_questions_random_count: 3 } as never });
    expect(f).toMatchObject({ opening_statement: 'Hi', suggested_questions: ['a'], suggested_questions_random_count: 0 });
    expect(featuresOf({ features: 'nonsense' as never })).toEqual(defaultAppFeatures());
  });

  it('show every suggested question with a count of 0, otherwise that many distinct ones in their order', () => {
    const qs = ['a', 'b', 'c', 'd', 'e'];
    expect(shownSuggestedQuestions({ suggested_questions: qs, suggested_questions_random_count: 0 })).toEqual(qs);
    expect(shownSuggestedQuestions({ suggested_questions: qs, suggested_questions_random_count: 5 })).toEqual(qs);
    for (const random of [() => 0, () => 0.999999, Math.random]) {
      for (let n = 1; n < 5; n++) {
        const shown = shownSuggestedQuestions({ suggested_questions: qs, suggested_questions_random_count: n }, random);
        expect(shown).toHaveLength(n);
        expect(new Set(shown).size).toBe(n);
        expect(shown).toEqual(qs.filter((q) => shown.includes(q)));
      }
    }
  });
});
