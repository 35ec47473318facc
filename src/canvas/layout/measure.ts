import type { FlowNode } from '../../../schemas/flow';

/** A node's box on the canvas, in canvas pixels. */
export interface NodeSize {
  width: number;
  height: number;
}

/**
 * Gives the size of a node as the view draws it. The view injects one that reads the measured DOM
 * size (React Flow's `node.measured`); without it {@link defaultMeasure} guesses from the kind.
 * Containers are sized by the layout itself (around their children); their answer is a minimum.
 */
export type MeasureNode = (node: FlowNode) => NodeSize;

/** The width of an ordinary node (the node shell's fixed width). */
export const DEFAULT_NODE_WIDTH = 240;
/** The height of a node with one line of body. */
export const DEFAULT_NODE_HEIGHT = 88;
/** The smallest container the layout makes (room for its title bar and start node). */
export const MIN_CONTAINER_SIZE: NodeSize = { width: 320, height: 160 };

/** Height each extra branch row adds (if-else cases, classifier classes). */
const BRANCH_ROW = 36;

const listLength = (v: unknown) => (Array.isArray(v) ? v.length : 0);

/**
 * Sizes by kind when nothing was measured: notes keep their own size, branching nodes grow with
 * their branches, container starts are small, everything else is a standard node. Kinds are
 * matched by name only (the core imports no plugin); unknown kinds get the standard size.
 */
export const defaultMeasure: MeasureNode = (node) => {
  if (node.width && node.height) return { width: node.width, height: node.height };
  switch (node.kind) {
    case 'iteration-start':
    case 'loop-start':
      return { width: 44, height: 48 };
    case 'if-else':
      // One row per case plus ELSE, each with a line of conditions.
      return { width: DEFAULT_NODE_WIDTH, height: 60 + (listLength(node.config.cases) + 1) * BRANCH_ROW };
    case 'question-classifier':
      return { width: DEFAULT_NODE_WIDTH, height: 60 + listLength(node.config.classes) * BRANCH_ROW };
    default:
      return { width: DEFAULT_NODE_WIDTH, height: DEFAULT_NODE_HEIGHT };
  }
};
