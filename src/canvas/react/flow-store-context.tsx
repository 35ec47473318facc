import { createContext, type ReactNode } from 'react';
import type { FlowStore } from '../store/create-flow-store';

/** The editor's store, handed down to every canvas component (one per editor instance). */
export const FlowStoreContext = createContext<FlowStore | null>(null);

/**
 * Provides an editor's store to the components below.
 * @example
 * const [store] = useState(() => createFlowStore({ registry, mode, document }));
 * return <FlowStoreProvider store={store}><Canvas /></FlowStoreProvider>;
 */
export function FlowStoreProvider({ store, children }: { store: FlowStore; children?: ReactNode }) {
  return <FlowStoreContext.Provider value={store}>{children}</FlowStoreContext.Provider>;
}
