/**
 * The tabs of each app editor, in order (spec 2). Apart from the editor's layout so that the route
 * tree can name them without loading the editor's code (the portal's first load leaves it out).
 */
export const EDITOR_TABS = {
  'agent-builder': ['base', 'log', 'api', 'version', 'distribute', 'overview'],
  'agent-team': ['base', 'api', 'version', 'distribute'],
  'agent-flow': ['base', 'api', 'version', 'distribute', 'log', 'overview'],
  'digital-human': [],
} as const satisfies Record<string, readonly string[]>;

export type EditorKind = keyof typeof EDITOR_TABS;
export type EditorTab = (typeof EDITOR_TABS)[EditorKind][number];
