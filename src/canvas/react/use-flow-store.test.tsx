import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { shallow } from 'zustand/shallow';
import { makeStore } from '../plugins.fixture';
import { FlowStoreProvider } from './flow-store-context';
import { useFlowStore } from './use-flow-store';
import { useFlowStoreApi } from './use-flow-store-api';

let renders = 0;

function Title({ id }: { id: string }) {
  renders++;
  const title = useFlowStore((s) => s.document.nodes.find((n) => n.id === id)?.title);
  return <span data-testid="title">{title}</span>;
}

function Selected() {
  const ids = useFlowStore((s) => s.view.selection.nodes.filter((n) => n !== 'start'), shallow);
  const store = useFlowStoreApi();
  return <button onClick={() => store.setTitle('a', 'renamed')}>{ids.join(',')}</button>;
}

describe('FlowStoreProvider and hooks', () => {
  it('binds a selected slice and re-renders only when it changes', () => {
    const store = makeStore();
    render(
      <FlowStoreProvider store={store}>
        <Title id="a" />
        <Selected />
      </FlowStoreProvider>,
    );
    const before = renders;
    act(() => store.moveNodes({ b: { x: 5, y: 5 } }));
    act(() => store.setHoveredNode('b'));
    expect(renders).toBe(before);
    act(() => screen.getByRole('button').click());
    expect(screen.getByTestId('title')).toHaveTextContent('renamed');
    act(() => store.setSelection({ nodes: ['start', 'a'] }));
    expect(screen.getByRole('button')).toHaveTextContent('a');
  });

  it('tells a component outside the provider what is wrong', () => {
    const spy = console.error;
    console.error = () => {};
    try {
      expect(() => render(<Title id="a" />)).toThrow(/FlowStoreProvider/);
    } finally {
      console.error = spy;
    }
  });
});
