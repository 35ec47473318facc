/**
 * The built-in node kinds: one folder each under `plugins/`, in palette order (within a category).
 * This is the only list. Each folder holds the whole kind: `manifest.ts` (default export: the
 * `defineNodePlugin` result, no React), `executor.ts` (default export, server only), an optional
 * `view.tsx` (default export: `defineNodeView`, with the widgets only this kind uses), its tests and
 * its story. The server loads manifests and executors from it (src/server/plugins/builtins.ts), the
 * editor manifests and views (src/canvas/builtin-plugins.ts), so no executor reaches the browser.
 * A new built-in kind is its folder plus one line here.
 */
export const BUILTIN_KINDS = [
  'start',
  'end',
  'answer',
  'llm',
  'agent',
  'question-classifier',
  'parameter-extractor',
  'knowledge-retrieval',
  'if-else',
  'iteration',
  'iteration-start',
  'loop',
  'loop-start',
  'code',
  'template-transform',
  'list-operator',
  'document-extractor',
  'variable-aggregator',
  'variable-assigner',
  'tool',
  'mcp',
  'http-request',
  'note',
] as const;

export type BuiltinKind = (typeof BUILTIN_KINDS)[number];
