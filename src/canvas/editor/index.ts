/**
 * The flow editor's React view (React Flow bound to a flow store): the editor, its palette and the
 * pieces a page may reuse. The core (store, commands, rules) is `src/canvas`.
 */
export { FlowEditor, type FlowEditorProps } from './flow-editor';
export { Palette, paletteGroups, PALETTE_DRAG_TYPE, type PaletteGroup, type PaletteProps } from './palette';
export { NodeIcon, loadLucideIcon, preloadNodeIcons } from './node-icon';
export { registerPluginTexts, kindTitle, kindDescription } from './plugin-texts';
