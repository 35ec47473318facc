import { useStoreWithEqualityFn } from 'zustand/traditional';
import type { FlowState } from '../store/state';
import { useFlowStoreApi } from './use-flow-store-api';

/**
 * A slice of the editor's state; the component re-renders only when the slice changes by
 * `equality` (default `Object.is`; pass `shallow` from `zustand/shallow` for arrays and objects).
 * @example
 * const title = useFlowStore((s) => s.document.nodes.find((n) => n.id === id)?.title);
 * const selected = useFlowStore((s) => s.view.selection.nodes, shallow);
 */
export function useFlowStore<T>(selector: (state: FlowState) => T, equality?: (a: T, b: T) => boolean): T {
  return useStoreWithEqualityFn(useFlowStoreApi().api, selector, equality);
}
