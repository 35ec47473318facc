/**
 * The canvas's minimap. React Flow's MiniMap (MIT; its frame, mask, sizes and pan/zoom through
 * @xyflow/system's XYMinimap, kept as they are) draws each node with a component of its own
 * subscribed to the flow's store: on a 1,000-node flow every pointer move of a drag ran 1,000 more
 * selectors, about a third of the drag's main-thread work (bench:canvas). Here every node is one
 * subpath of one path per kind colour (the selected ones of another), from one subscription.
 */
import { memo, useEffect, useRef } from 'react';
import { Panel, useStore, useStoreApi, type InternalNode, type ReactFlowState } from '@xyflow/react';
import type { FlowNode } from '../../../schemas/flow';
import type { NodeRegistry } from '../../plugin-sdk';
import { useFlowStore } from '../react/use-flow-store';
import { useFlowStoreApi } from '../react/use-flow-store-api';
import { getBoundsOfRects, getInternalNodesBounds, getNodeDimensions, nodeHasDimensions, XYMinimap, type Rect, type XYMinimapInstance } from '@xyflow/system';

const WIDTH = 200;
const HEIGHT = 150;
const OFFSET_SCALE = 5;

const rectEqual = (a: Rect, b: Rect) => a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
const filterHidden = (node: InternalNode) => !node.hidden;

interface Frame {
  viewBB: Rect;
  boundingRect: Rect;
  panZoom: ReactFlowState['panZoom'];
  translateExtent: ReactFlowState['translateExtent'];
  flowWidth: number;
  flowHeight: number;
  rfId: string;
  ariaLabel: string;
}

const selectFrame = (s: ReactFlowState): Frame => {
  const viewBB = { x: -s.transform[0] / s.transform[2], y: -s.transform[1] / s.transform[2], width: s.width / s.transform[2], height: s.height / s.transform[2] };
  let visible = false;
  for (const node of s.nodeLookup.values()) {
    if (!node.hidden) {
      visible = true;
      break;
    }
  }
  return {
    viewBB,
    boundingRect: visible ? getBoundsOfRects(getInternalNodesBounds(s.nodeLookup, { filter: filterHidden }), viewBB) : viewBB,
    panZoom: s.panZoom,
    translateExtent: s.translateExtent,
    flowWidth: s.width,
    flowHeight: s.height,
    rfId: s.rfId,
    ariaLabel: s.ariaLabelConfig['minimap.ariaLabel'],
  };
};
const frameEqual = (a: Frame, b: Frame) =>
  rectEqual(a.viewBB, b.viewBB) &&
  rectEqual(a.boundingRect, b.boundingRect) &&
  a.panZoom === b.panZoom &&
  a.translateExtent === b.translateExtent &&
  a.flowWidth === b.flowWidth &&
  a.flowHeight === b.flowHeight &&
  a.rfId === b.rfId &&
  a.ariaLabel === b.ariaLabel;

/**
 * SVG path data of the nodes' rectangles (absolute positions, measured sizes): one path per kind
 * colour (`colorOf`: a node id's colour, undefined for the default grey), the selected ones apart.
 */
export function minimapPaths(nodeLookup: Iterable<InternalNode>, colorOf: (id: string) => string | undefined = () => undefined): { groups: { color: string | undefined; d: string }[]; selected: string } {
  const groups = new Map<string | undefined, string[]>();
  const selected: string[] = [];
  for (const node of nodeLookup) {
    const user = node.internals.userNode;
    if (user.hidden || !nodeHasDimensions(user)) continue;
    const { x, y } = node.internals.positionAbsolute;
    const { width, height } = getNodeDimensions(user);
    const d = `M${x},${y}h${width}v${height}h${-width}z`;
    if (user.selected) {
      selected.push(d);
      continue;
    }
    const color = colorOf(user.id);
    const group = groups.get(color);
    if (group) group.push(d);
    else groups.set(color, [d]);
  }
  return { groups: [...groups].map(([color, ds]) => ({ color, d: ds.join('') })), selected: selected.join('') };
}

/** Node positions, sizes, visibility or selection changed: the store's `nodes` array is new then. */
const selectNodes = (s: ReactFlowState) => s.nodes;

/** Kind colours by node id, built once per document node list (a drag does not change the list). */
const colorsByList = new WeakMap<readonly FlowNode[], Map<string, string | undefined>>();
function kindColors(nodes: readonly FlowNode[], registry: NodeRegistry) {
  let colors = colorsByList.get(nodes);
  if (!colors) {
    colors = new Map(nodes.map((n) => [n.id, registry.get(n.kind)?.color]));
    colorsByList.set(nodes, colors);
  }
  return colors;
}

const MinimapNodes = memo(function MinimapNodes() {
  useStore(selectNodes);
  const store = useStoreApi();
  const flowStore = useFlowStoreApi();
  const colors = kindColors(useFlowStore((st) => st.document.nodes), flowStore.registry);
  const { groups, selected } = minimapPaths(store.getState().nodeLookup.values(), (id) => colors.get(id));
  return (
    <>
      {groups.map((g) => (
        <path key={g.color ?? ''} className="react-flow__minimap-node" d={g.d} style={g.color ? { fill: g.color } : undefined} shapeRendering="crispEdges" data-testid="minimap-nodes" data-color={g.color} />
      ))}
      {selected && <path className="react-flow__minimap-node selected" d={selected} shapeRendering="crispEdges" />}
    </>
  );
});

export function FlowMinimap({ className }: { className?: string }) {
  const store = useStoreApi();
  const svg = useRef<SVGSVGElement>(null);
  const { boundingRect, viewBB, panZoom, translateExtent, flowWidth, flowHeight, rfId, ariaLabel } = useStore(selectFrame, frameEqual);
  const viewScale = Math.max(boundingRect.width / WIDTH, boundingRect.height / HEIGHT);
  const viewWidth = viewScale * WIDTH;
  const viewHeight = viewScale * HEIGHT;
  const offset = OFFSET_SCALE * viewScale;
  const x = boundingRect.x - (viewWidth - boundingRect.width) / 2 - offset;
  const y = boundingRect.y - (viewHeight - boundingRect.height) / 2 - offset;
  const width = viewWidth + offset * 2;
  const height = viewHeight + offset * 2;
  const labelledBy = `react-flow__minimap-desc-${rfId}`;
  const viewScaleRef = useRef(0);
  viewScaleRef.current = viewScale;
  const minimap = useRef<XYMinimapInstance>(undefined);

  useEffect(() => {
    const current = store.getState().panZoom;
    if (!svg.current || !current) return;
    minimap.current = XYMinimap({ domNode: svg.current, panZoom: current, getTransform: () => store.getState().transform, getViewScale: () => viewScaleRef.current });
    return () => minimap.current?.destroy();
  }, [panZoom, store]);
  useEffect(() => {
    minimap.current?.update({ translateExtent, width: flowWidth, height: flowHeight, inversePan: false, pannable: true, zoomStep: 1, zoomable: true });
  }, [translateExtent, flowWidth, flowHeight, panZoom]);

  return (
    <Panel position="bottom-right" className={['react-flow__minimap', className].filter(Boolean).join(' ')} data-testid="rf__minimap">
      <svg width={WIDTH} height={HEIGHT} viewBox={`${x} ${y} ${width} ${height}`} className="react-flow__minimap-svg" role="img" aria-labelledby={labelledBy} ref={svg}>
        {ariaLabel && <title id={labelledBy}>{ariaLabel}</title>}
        <MinimapNodes />
        <path
          className="react-flow__minimap-mask"
          d={`M${x - offset},${y - offset}h${width + offset * 2}v${height + offset * 2}h${-width - offset * 2}z
        M${viewBB.x},${viewBB.y}h${viewBB.width}v${viewBB.height}h${-viewBB.width}z`}
          fillRule="evenodd"
          pointerEvents="none"
        />
      </svg>
    </Panel>
  );
}
