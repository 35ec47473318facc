/**
 * A store app's flow on the real canvas in read-only mode (no palette edits, no dragging, no saving):
 * loaded lazily by the app detail page, so the gallery never pulls the editor's code.
 */
import { useState } from 'react';
import type { FlowDocument, FlowMode } from '../../../schemas/flow';
import { builtinPlugins } from '../../canvas/builtin-plugins';
import { createFlowStore } from '../../canvas';
import { FlowEditor } from '../../canvas/editor';
import { createNodeRegistry } from '../../plugin-sdk';

let registry: ReturnType<typeof createNodeRegistry> | undefined;

export default function FlowPreview({ document, mode }: { document: FlowDocument; mode: FlowMode }) {
  const [store] = useState(() => createFlowStore({ registry: (registry ??= createNodeRegistry(builtinPlugins)), mode, document, readOnly: true }));
  return <FlowEditor store={store} variables={false} features={false} animateLayout={false} />;
}
