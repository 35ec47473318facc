import { defineNodeView } from '../../src/plugin-sdk/view';
import { asWidget } from '../../src/canvas/widgets/kit';
import { CodeEditorWidget, CodeLanguageWidget } from './code-widgets';
import { CODE_WIDGETS, codePlugin } from './manifest';
import { SandboxTimeoutWidget } from './sandbox-timeout';

/** The code node's own widgets: the language with its templates, the editor in that language, the timeout with the server's cap. */
export default defineNodeView(codePlugin, {
  widgets: {
    [CODE_WIDGETS.sandboxTimeout]: asWidget(SandboxTimeoutWidget),
    [CODE_WIDGETS.codeLanguage]: asWidget(CodeLanguageWidget),
    [CODE_WIDGETS.codeEditor]: asWidget(CodeEditorWidget),
  },
});
