import { describe, expect, it } from 'vitest';
import { createFlowGraph, FLOW_MODES } from '../../src/plugin-sdk';
import { flow, handlesOf, issueKeys, node, outputsOf, registry } from './helpers';

describe('modes', () => {
  // The agent kind goes anywhere now: Dify places its agent node in chatflows and workflows (issue 26).
  it('keeps end to workflows and answer to chats; the agent and the rest go anywhere', () => {
    const modes = Object.fromEntries(registry.plugins.map((p) => [p.kind, p.modes]));
    expect(modes.end).toEqual(['workflow']);
    expect(modes.answer).toEqual(['chatflow', 'agent', 'agent_team']);
    expect(modes.agent).toEqual(['agent', 'agent_team', 'chatflow', 'workflow']);
    for (const kind of ['llm', 'code', 'if-else', 'iteration', 'loop', 'http-request', 'note']) expect(modes[kind]).toEqual(FLOW_MODES);
  });

  it('hides container starts from the palette and keeps them undeletable', () => {
    expect(registry.list('workflow').filter((p) => !p.palette).map((p) => p.kind)).toEqual(['iteration-start', 'loop-start']);
    expect(registry.get('loop-start')).toMatchObject({ deletable: false, singleton: true, parents: ['loop'] });
  });
});

describe('end and answer', () => {
  it('end returns named variables and has no way out', () => {
    const doc = flow('workflow', [node('start', 'start', { variables: [{ name: 'q' }] }), node('end', 'end', { outputs: [{ name: 'r', selector: ['start', 'q'] }, { name: 'r', selector: [] }] })], [['start', 'end']]);
    expect(issueKeys(doc, 'end')).toEqual(['issues.nameDuplicate', 'issues.selectorEmpty']);
    expect(handlesOf(doc.nodes[1])).toEqual([]);
    expect(issueKeys(flow('workflow', [node('end', 'end')]), 'end')).toEqual(['issues.outputsEmpty']);
  });

  it('answer needs a reply and checks its references', () => {
    expect(issueKeys(flow('chatflow', [node('a', 'answer')]), 'a')).toEqual(['issues.answerEmpty']);
    const doc = flow('chatflow', [node('start', 'start'), node('a', 'answer', { answer: 'You said {{#sys.query#}} {{#llm9.text#}}' })], [['start', 'a']]);
    expect(issueKeys(doc, 'a')).toEqual(['sdk:issues.referenceMissing']);
  });
});

describe('template-transform', () => {
  it('outputs one string and checks inputs and the template', () => {
    const doc = flow('workflow', [node('t', 'template-transform', { template: '{{ arg1 }' })]);
    expect(outputsOf(doc, 't')).toEqual([{ name: 'output', type: 'string', labelKey: 'outputs.output' }]);
    expect(issueKeys(doc, 't')).toEqual(['issues.selectorEmpty', 'issues.templateUnbalanced']);
  });
});

describe('tool and mcp', () => {
  it('need their tool, and a variable for parameters that take one', () => {
    const tool = flow('workflow', [node('t', 'tool', { params: [{ name: 'city', source: 'variable' }, { name: 'unit', text: 'c' }] })]);
    expect(issueKeys(tool, 't')).toEqual(['issues.toolMissing', 'issues.selectorEmpty']);
    expect(outputsOf(tool, 't').map((p) => `${p.name}:${p.type}`)).toEqual(['text:string', 'files:array[file]', 'json:array[object]']);
    expect(issueKeys(flow('workflow', [node('m', 'mcp', { serverId: 's1' })]), 'm')).toEqual(['issues.toolMissing']);
    expect(issueKeys(flow('workflow', [node('m', 'mcp', { serverId: 's1', toolName: 'search', args: [{ name: 'q', text: 'x' }] })]), 'm')).toEqual([]);
  });
});

describe('note', () => {
  it('has no ports or handles and no checks', () => {
    const n = node('n', 'note', { text: 'Remember the API key', theme: 'blue' });
    expect(handlesOf(n)).toEqual([]);
    expect(registry.get('note')).toMatchObject({ targetHandle: false, category: 'annotation' });
    expect(registry.outputsOf(n, createFlowGraph(flow('workflow', [n])))).toEqual([]);
    expect(issueKeys(flow('workflow', [n]), 'n')).toEqual([]);
  });
});

describe('references', () => {
  it('remaps selectors and {{#…#}} references of every kind when pasted', () => {
    const n = node('c', 'if-else', { cases: [{ id: 'true', conditions: [{ id: 'x', selector: ['a', 'q'], operator: 'is', value: '{{#a.v#}}' }] }] });
    const moved = registry.remapReferences(n, { a: 'b' });
    expect(moved.config.cases).toEqual([{ id: 'true', conditions: [{ id: 'x', selector: ['b', 'q'], operator: 'is', value: '{{#b.v#}}' }] }]);
  });
});
