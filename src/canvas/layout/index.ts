/**
 * Auto-layout of a flow (ELK layered, left to right, containers inside) and the tween the view
 * uses to move nodes into place. The view passes `createLayout(...)` to the command manager as
 * `layout`; the `layout` command applies the result as one undo step.
 */
export { createLayout, type CreateLayoutOptions, type FlowLayout } from './create-layout';
export { animatePositions, easeOutCubic, type AnimateOptions, type PositionAnimation } from './animate';
export { defaultMeasure, DEFAULT_NODE_HEIGHT, DEFAULT_NODE_WIDTH, MIN_CONTAINER_SIZE, type MeasureNode, type NodeSize } from './measure';
export { buildElkJobs, readElkResult, CONTAINER_PADDING, LAYOUT_SPACING, type ElkJob, type LayoutResult } from './elk-graph';
