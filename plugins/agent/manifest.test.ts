import { describe, expect, it } from 'vitest';
import { computeChecklist, hasBlockingIssues } from '../../src/canvas/checklist';
import { createFlowGraph, runPluginContract } from '../../src/plugin-sdk';
import { flow, handlesOf, issueKeys, node, registry } from '../../tests/plugins/helpers';
import { KNOWLEDGE_RESULT_MAX, KNOWLEDGE_SEGMENT_MAX, knowledgeResultText } from './executor';
import { agentPlugin } from './manifest';

const model = { provider: 'p', name: 'm' };
const agent = (id: string, config: Record<string, unknown> = {}) => node(id, 'agent', { model, instructions: 'Help.', ...config });

describe('agent', () => {
  it('appears in agent, agent-team, chatflow and workflow apps (as Dify places its agent node), answering the user message by default', () => {
    expect(registry.get('agent')!.modes).toEqual(['agent', 'agent_team', 'chatflow', 'workflow']);
    expect(node('a', 'agent').config.query).toEqual(['sys', 'query']);
    for (const mode of ['workflow', 'chatflow'] as const) expect(issueKeys(flow(mode, [agent('a')]), 'a')).not.toContain('sdk:issues.modeNotAllowed');
  });

  it('hands off only to other agents of the flow, which then need a description', () => {
    const doc = flow(
      'agent_team',
      [
        node('start', 'start'),
        agent('lead', { handoffs: ['billing', 'billing', 'lead', 'start', 'ghost'] }),
        agent('billing'),
        agent('support', { handoffDescription: 'Answers questions' }),
      ],
      [['start', 'lead']],
    );
    expect(issueKeys(doc, 'lead')).toEqual(['issues.handoffDuplicate', 'issues.handoffSelf', 'issues.handoffMissing', 'issues.handoffMissing']);
    expect(issueKeys(doc, 'billing')).toEqual(['issues.handoffDescriptionEmpty']);
    // Standing apart with no agent handing off to it, it would never run.
    expect(issueKeys(doc, 'support')).toEqual(['issues.teamMemberUnreached']);
  });

  it('in a team, agents without edges are members the checklist accepts; one no agent hands off to is warned about', () => {
    const doc = flow(
      'agent_team',
      [
        node('start', 'start'),
        agent('lead', { handoffs: ['billing'] }),
        node('ans', 'answer', { answer: '{{#lead.text#}}' }),
        agent('billing', { handoffDescription: 'Invoices' }),
        agent('idle', { handoffDescription: 'Nothing' }),
      ],
      [['start', 'lead'], ['lead', 'ans']],
    );
    const entries = computeChecklist(doc, registry);
    expect(entries.map((e) => [e.nodeId, e.key, e.severity])).toEqual([['idle', 'issues.teamMemberUnreached', 'warning']]);
    expect(hasBlockingIssues(entries)).toBe(false);
    // The lead's outputs name who answered; the same agent in an agent app has no such output.
    expect(registry.outputsOf(doc.nodes[1]!, createFlowGraph(doc)).map((p) => p.name)).toContain('answered_by');
    // The same lone agent in an agent app is a step that is not connected.
    const single = { ...doc, mode: 'agent' as const };
    expect(computeChecklist(single, registry).filter((e) => e.severity === 'error').map((e) => [e.nodeId, e.key])).toEqual([
      ['billing', 'checklist.notConnected'],
      ['idle', 'checklist.notConnected'],
    ]);
  });

  it('needs a model and complete tools, and warns without instructions', () => {
    const doc = flow('agent', [node('start', 'start'), node('a', 'agent', { tools: [{ type: 'mcp', providerId: 's1', name: '' }] })], [['start', 'a']]);
    expect(issueKeys(doc, 'a')).toEqual(['model.issues.modelMissing', 'issues.instructionsEmpty', 'issues.toolIncomplete']);
    expect(handlesOf(agent('a', { errorStrategy: 'fail-branch' }))).toEqual(['source', 'fail-branch']);
  });

  it('searches no knowledge base by default; version 1 nodes gain the knowledge settings', () => {
    expect(runPluginContract(agentPlugin)).toEqual([]);
    expect(agentPlugin.version).toBe(3);
    const fresh = node('a', 'agent').config;
    expect([fresh.knowledgeIds, fresh.knowledgeTopK, fresh.knowledgeMinScore]).toEqual([[], 4, 0]);
    // Picked with the knowledge-retrieval node's widget.
    const shape = (agentPlugin.configSchema as unknown as { shape: Record<string, { meta(): unknown }> }).shape;
    expect(shape.knowledgeIds!.meta()).toMatchObject({ widget: 'knowledge-bases' });
    const old = { id: 'a', kind: 'agent', kindVersion: 1, title: 'a', position: { x: 0, y: 0 }, config: { model, instructions: 'Help.', tools: [] } };
    const migrated = registry.migrate(old);
    expect(migrated.kindVersion).toBe(3);
    expect(migrated.config).toMatchObject({ model, instructions: 'Help.', knowledgeIds: [], knowledgeTopK: 4, knowledgeMinScore: 0 });
    // A version-1 node that already names bases (written by hand or an import) keeps them.
    expect(registry.migrate({ ...old, config: { ...old.config, knowledgeIds: ['kb1'] } }).config.knowledgeIds).toEqual(['kb1']);
    expect(agentPlugin.configSchema.safeParse({ knowledgeTopK: 0 }).success).toBe(false);
    expect(agentPlugin.configSchema.safeParse({ knowledgeMinScore: 1.5 }).success).toBe(false);
  });

  it('has vision off by default, on the user’s files; version 2 nodes gain it off', () => {
    const fresh = node('a', 'agent').config;
    expect([fresh.visionEnabled, fresh.visionFiles, fresh.visionDetail]).toEqual([false, ['sys', 'files'], 'high']);
    expect(fresh.memoryEnabled).toBe(true);
    const v2 = { id: 'a', kind: 'agent', kindVersion: 2, title: 'a', position: { x: 0, y: 0 }, config: { model, instructions: 'Help.', tools: [], knowledgeIds: [] } };
    expect(registry.migrate(v2).config).toMatchObject({ visionEnabled: false, visionFiles: ['sys', 'files'], visionDetail: 'high' });
  });

  it('hands the model numbered, scored and bounded search results', () => {
    expect(knowledgeResultText([])).toBe('No relevant knowledge was found.');
    expect(knowledgeResultText([{ content: 'Pandas eat bamboo.', score: 0.71234, title: 'nature.txt' }, { content: 'Walls.', score: 0.2 }])).toBe(
      '[1] score 0.712 · nature.txt\nPandas eat bamboo.\n\n[2] score 0.200\nWalls.',
    );
    const long = knowledgeResultText(Array.from({ length: 10 }, (_, i) => ({ content: String(i).repeat(5000), score: 1 - i / 10 })));
    expect(long.length).toBeLessThanOrEqual(KNOWLEDGE_RESULT_MAX + 100);
    expect(long).toContain(`${'0'.repeat(KNOWLEDGE_SEGMENT_MAX)}…`);
    expect(long).not.toContain('0'.repeat(KNOWLEDGE_SEGMENT_MAX + 1));
    expect(long).toMatch(/\(\d+ more results left out\)$/);
  });
});
