import { CodeEditor } from '../../kit/widgets/code-editor';
import { ariaOf } from '../../kit/widgets/types';
import { useNodeWidgetEnv } from './context';
import { LargeEditor } from './large-editor';
import type { NodeWidgetProps } from './list-widgets';

/**
 * A node's `widget: 'code'` field (the template node's Jinja2 template, …): the kit's code editor
 * plus "Open large", as the code node has (issue 27: the panel shows ~28 characters per line). Both
 * editors write through the field's onChange, so every edit lands in the canvas history.
 */
export function CodeWidget(p: NodeWidgetProps) {
  const env = useNodeWidgetEnv();
  const language = typeof p.field.meta.language === 'string' ? p.field.meta.language : undefined;
  const editor = (large?: number) => (
    <CodeEditor
      {...ariaOf(p)}
      value={typeof p.value === 'string' ? p.value : ''}
      onChange={p.onChange}
      onBlur={p.onBlur}
      language={language}
      placeholder={p.placeholder}
      disabled={p.disabled}
      readOnly={p.readOnly || env.readOnly}
      invalid={p.invalid}
      {...(large ? { height: large, maxHeight: large, resizable: false } : {})}
    />
  );
  return (
    <>
      {editor()}
      <LargeEditor label={p.field.label ? p.tk(p.field.label) : p.field.name}>{(h) => editor(h)}</LargeEditor>
    </>
  );
}
