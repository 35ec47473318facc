/**
 * Loads Monaco (bundled from the `monaco-editor` package: no CDN, works offline) and its web
 * workers through Vite's `?worker` imports. Only ever imported dynamically (see code-editor.tsx),
 * so the editor stays out of the main bundle.
 */
import * as monaco from 'monaco-editor';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import JsonWorker from 'monaco-editor/languages/features/json/json.worker?worker';
import TsWorker from 'monaco-editor/languages/features/typescript/ts.worker?worker';
import CssWorker from 'monaco-editor/languages/features/css/css.worker?worker';
import HtmlWorker from 'monaco-editor/languages/features/html/html.worker?worker';

type Env = { getWorker: (workerId: string, label: string) => Worker };

(globalThis as unknown as { MonacoEnvironment: Env }).MonacoEnvironment = {
  getWorker(_id, label) {
    switch (label) {
      case 'json':
        return new JsonWorker();
      case 'typescript':
      case 'javascript':
        return new TsWorker();
      case 'css':
      case 'scss':
      case 'less':
        return new CssWorker();
      case 'html':
      case 'handlebars':
      case 'razor':
        return new HtmlWorker();
      default:
        return new EditorWorker();
    }
  },
};

export { monaco };
export type Monaco = typeof monaco;
