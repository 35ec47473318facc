import { BaseEdge, getBezierPath, type EdgeProps } from '@xyflow/react';
import { memo, type MouseEvent } from 'react';
import { useFlowStore } from '../react/use-flow-store';
import { useEditorServices } from './editor-context';
import { useNodeTexts, useOverview } from './flow-node';
import s from './editor.module.css';

const readOnlySelector = (st: { readOnly: boolean }) => st.readOnly;

/**
 * An edge with a "+" at its middle, shown while the pointer is on the edge (CSS :hover on the
 * edge's group, so hovering costs no render): it opens the palette, and the chosen node goes into
 * the edge (source → new node → target). Registered as React Flow's `default` edge type. Not in the
 * overview (zoomed out, flow-node.tsx), where it is too small to hit: the "+" is four of an edge's
 * seven elements, a quarter of the DOM of a 1,000-node flow opened in full view.
 */
export const InsertableEdge = memo(function InsertableEdge(props: EdgeProps) {
  const { id, markerEnd, style, interactionWidth } = props;
  const [path, labelX, labelY] = getBezierPath(props);
  const { ui } = useEditorServices();
  const texts = useNodeTexts();
  const readOnly = useFlowStore(readOnlySelector);
  const overview = useOverview();
  const open = (e: MouseEvent<SVGGElement>) => {
    // Not the edge's own click (it would select the edge).
    e.stopPropagation();
    ui.setState({ addFrom: { nodeId: '', handleId: '', x: e.clientX + 12, y: e.clientY - 12, edge: { id, at: { x: labelX, y: labelY } } }, menu: null });
  };
  return (
    <>
      <BaseEdge id={id} path={path} markerEnd={markerEnd} style={style} interactionWidth={interactionWidth} />
      {!readOnly && !overview && (
        <g className={`${s.edgeAdd} nodrag nopan`} transform={`translate(${labelX} ${labelY})`} role="button" aria-label={texts.insertHere} data-testid={`edge-add-${id}`} onClick={open}>
          <title>{texts.insertHere}</title>
          <circle r={9} />
          <path d="M-4 0H4M0 -4V4" />
        </g>
      )}
    </>
  );
});
