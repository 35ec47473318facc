import { describe, expect, it } from 'vitest';
import { flow, handlesOf, issueKeys, node, outputsOf } from '../../tests/plugins/helpers';

const model = { provider: 'openai', name: 'gpt-4o', mode: 'chat', params: { temperature: 0.2, stop: [], response_format: 'text' } };

describe('llm', () => {
  it('defaults to a system and a user prompt with temperature 0.7, and needs a model and a prompt', () => {
    const n = node('llm1', 'llm');
    expect(n.config.prompts).toEqual([
      { role: 'system', text: '' },
      { role: 'user', text: '' },
    ]);
    expect((n.config.model as typeof model).params.temperature).toBe(0.7);
    const doc = flow('workflow', [node('start', 'start'), n], [['start', 'llm1']]);
    expect(issueKeys(doc, 'llm1')).toEqual(['model.issues.modelMissing', 'issues.promptEmpty']);
  });

  it('refuses out-of-range completion parameters and more than four stop sequences', () => {
    const bad = { ...model, params: { presence_penalty: 2.5, stop: ['a', 'b', 'c', 'd', 'e'], response_format: 'text' } };
    const doc = flow('workflow', [node('llm1', 'llm', { model: bad, prompts: [{ role: 'user', text: 'hi' }] })]);
    expect(issueKeys(doc, 'llm1')).toEqual(['sdk:issues.configInvalid', 'sdk:issues.configInvalid']);
  });

  it('checks context, vision files and dangling prompt references; memory (on by default) waits for a conversation', () => {
    const doc = flow(
      'workflow',
      [
        node('start', 'start'),
        node('llm1', 'llm', {
          model,
          prompts: [{ role: 'user', text: 'Answer {{#start.q#}}' }],
          contextEnabled: true,
          memoryEnabled: true,
          visionEnabled: true,
        }),
      ],
      [['start', 'llm1']],
    );
    expect(issueKeys(doc, 'llm1')).toEqual([
      'sdk:issues.referenceMissing',
      'issues.contextMissing',
      'issues.contextUnused',
      'model.issues.visionFilesMissing',
    ]);
  });

  it('adds structured output fields and the fail branch when configured', () => {
    const n = node('llm1', 'llm', {
      model,
      prompts: [{ role: 'user', text: 'x' }],
      structuredOutputEnabled: true,
      structuredOutput: [
        { name: 'city', type: 'string' },
        { name: 'days', type: 'number', required: true },
      ],
      errorStrategy: 'fail-branch',
    });
    const doc = flow('workflow', [n]);
    const out = outputsOf(doc, 'llm1');
    expect(out.map((p) => p.name)).toEqual(['text', 'reasoning_content', 'usage', 'structured_output', 'error_message', 'error_code']);
    expect(out[3].children?.map((c) => `${c.name}:${c.type}`)).toEqual(['city:string', 'days:number']);
    expect(handlesOf(n)).toEqual(['source', 'fail-branch']);
    expect(issueKeys(doc, 'llm1')).toEqual([]);
  });

  it('checks default values against the outputs when failing to defaults', () => {
    const n = node('llm1', 'llm', {
      model,
      prompts: [{ role: 'user', text: 'x' }],
      errorStrategy: 'default-value',
      defaultValues: [
        { name: 'text', value: 'sorry' },
        { name: 'usage', value: 3 },
        { name: 'nope', value: 1 },
      ],
    });
    expect(issueKeys(flow('workflow', [n]), 'llm1')).toEqual([
      'run.issues.defaultValueType',
      'run.issues.defaultValueUnknown',
      'run.issues.defaultValueMissing',
    ]);
  });
});
