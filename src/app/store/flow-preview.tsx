/**
 * A store app's flow on the real canvas in read-only mode (no palette edits, no dragging, no saving):
 * loaded lazily by the app detail page, so the gallery never pulls the editor's code.
 */
import { useEffect, useState } from 'react';
import type { FlowDocument, FlowMode } from '../../../schemas/flow';
import { createFlowStore, type FlowStore } from '../../canvas';
import { FlowEditor } from '../../canvas/editor';
import { loadNodeRegistry } from '../../canvas/node-registry-loader';

/** The node kinds are the built-ins and the installed plugins' (a flow that uses one shows it as the editor does). */
export default function FlowPreview({ document, mode }: { document: FlowDocument; mode: FlowMode }) {
  const [store, setStore] = useState<FlowStore | null>(null);
  useEffect(() => {
    let live = true;
    void loadNodeRegistry().then((registry) => live && setStore(createFlowStore({ registry, mode, document, readOnly: true })));
    return () => {
      live = false;
    };
  }, [document, mode]);
  return store ? <FlowEditor store={store} variables={false} features={false} animateLayout={false} /> : null;
}
