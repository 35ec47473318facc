import { useContext } from 'react';
import type { FlowStore } from '../store/create-flow-store';
import { FlowStoreContext } from './flow-store-context';

/** The editor's store itself (for actions and commands); throws outside a `FlowStoreProvider`. */
export function useFlowStoreApi(): FlowStore {
  const store = useContext(FlowStoreContext);
  if (!store) throw new Error('useFlowStoreApi must be used inside a FlowStoreProvider');
  return store;
}
