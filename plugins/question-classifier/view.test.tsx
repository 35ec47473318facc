import { within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { showInspector as show, useInspectorTests } from '../../src/canvas/widgets/inspector.fixture';
import { nextClassId } from './view';

useInspectorTests();

describe('class list', () => {
  it('generates the next numeric id', () => {
    expect(nextClassId(['1', '2'])).toBe('3');
    expect(nextClassId(['7', 'other'])).toBe('8');
    expect(nextClassId([])).toBe('1');
  });

  it('adds a class with a fresh id, which becomes a branch', async () => {
    const user = userEvent.setup();
    const { config, field, store, nodeId } = show('question-classifier');
    await user.click(within(field('classes')).getByRole('button', { name: 'Add class' }));
    await user.type(within(field('classes')).getByRole('textbox', { name: 'Class 3' }), 'Refunds');
    expect(config().classes).toEqual([
      { id: '1', name: '' },
      { id: '2', name: '' },
      { id: '3', name: 'Refunds' },
    ]);
    expect(store.registry.sourceHandlesOf(store.toDocument().nodes.find((n) => n.id === nodeId)!).map((h) => h.id)).toContain('3');
  });
});
