import { describe, expect, it } from 'vitest';
import { flow, handlesOf, issueKeys, node, registry } from '../../tests/plugins/helpers';

const model = { provider: 'p', name: 'm' };
const agent = (id: string, config: Record<string, unknown> = {}) => node(id, 'agent', { model, instructions: 'Help.', ...config });

describe('agent', () => {
  it('appears only in agent and agent-team apps, answering the user message by default', () => {
    expect(registry.get('agent')!.modes).toEqual(['agent', 'agent_team']);
    expect(node('a', 'agent').config.query).toEqual(['sys', 'query']);
    expect(issueKeys(flow('workflow', [agent('a')]), 'a')).toContain('sdk:issues.modeNotAllowed');
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
    expect(issueKeys(doc, 'support')).toEqual([]);
  });

  it('needs a model and complete tools, and warns without instructions', () => {
    const doc = flow('agent', [node('start', 'start'), node('a', 'agent', { tools: [{ type: 'mcp', providerId: 's1', name: '' }] })], [['start', 'a']]);
    expect(issueKeys(doc, 'a')).toEqual(['model.issues.modelMissing', 'issues.instructionsEmpty', 'issues.toolIncomplete']);
    expect(handlesOf(agent('a', { errorStrategy: 'fail-branch' }))).toEqual(['source', 'fail-branch']);
  });
});
