import { defineNodeView } from '../../src/plugin-sdk/view';
import { asWidget } from '../../src/canvas/widgets/kit';
import { CODE_WIDGETS, codePlugin } from './manifest';
import { SandboxTimeoutWidget } from './sandbox-timeout';

/** The code node's own widget: its timeout with the server's sandbox cap shown under it. */
export default defineNodeView(codePlugin, {
  widgets: { [CODE_WIDGETS.sandboxTimeout]: asWidget(SandboxTimeoutWidget) },
});
