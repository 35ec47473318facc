import type { ValueType } from '../../schemas/flow';
import { ariaOf } from '../../src/kit/widgets/types';
import { isSelector } from '../../src/plugin-sdk';
import { defineNodeView } from '../../src/plugin-sdk/view';
import { asWidget, useNodeWidgetEnv, VariablePicker, widgetStyles as s, type NodeWidgetProps } from '../../src/canvas/widgets/kit';
import { DOCUMENT_EXTRACTOR_WIDGETS, documentExtractorPlugin } from './manifest';

/** What the extractor reads: one file or a list of files. */
const FILE_TYPES: readonly ValueType[] = ['file', 'array[file]'];

/**
 * The file variable, picked among file variables only (a text variable would fail at run time), with
 * what the output becomes: one text for a file, a list of texts for a list of files.
 */
function FileVariableWidget(p: NodeWidgetProps) {
  const env = useNodeWidgetEnv();
  const value = Array.isArray(p.value) ? (p.value as string[]) : [];
  const type = isSelector(value) ? env.typeOf(value) : undefined;
  return (
    <div className={s.rows}>
      <VariablePicker
        {...ariaOf(p)}
        value={value}
        types={FILE_TYPES}
        onChange={p.onChange}
        onBlur={p.onBlur}
        disabled={p.disabled}
        readOnly={p.readOnly || env.readOnly}
        invalid={p.invalid}
        placeholder={p.placeholder}
      />
      {type && FILE_TYPES.includes(type) && <p className={s.muted}>{p.tk(type === 'file' ? 'outputHint.one' : 'outputHint.list')}</p>}
    </div>
  );
}

/** The document extractor's own widget: a picker of file variables. */
export default defineNodeView(documentExtractorPlugin, {
  widgets: { [DOCUMENT_EXTRACTOR_WIDGETS.fileVariable]: asWidget(FileVariableWidget) },
});
