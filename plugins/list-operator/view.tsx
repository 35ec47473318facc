import { elementType, type ValueType } from '../../schemas/flow';
import { ariaOf } from '../../src/kit/widgets/types';
import { isSelector } from '../../src/plugin-sdk';
import { defineNodeView } from '../../src/plugin-sdk/view';
import {
  asWidget,
  FileTestRows,
  RowSelect,
  useNodeWidgetEnv,
  useRows,
  type NodeWidgetProps,
} from '../../src/canvas/widgets/kit';
import { COMPARISON_OPERATORS } from '../shared/conditions';
import { FILE_KEYS, LIST_OPERATOR_WIDGETS, listOperatorPlugin } from './manifest';

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** The type of the list's items, when its variable is chosen and typed (a file list's: 'file'). */
function useItemType(): ValueType | undefined {
  const env = useNodeWidgetEnv();
  const variable = env.node.config.variable;
  const type = isSelector(variable) ? env.typeOf(variable) : undefined;
  return type ? elementType(type) : undefined;
}

/** The type a filter compares: a file's size is a number, its other properties text; else the item's. */
const comparedType = (item: ValueType | undefined, key: string): ValueType | undefined => (item === 'file' ? (key === 'size' ? 'number' : 'string') : item);

/**
 * Filter rows `{ key, operator, value }`: for a list of files the property each compares, then the
 * operators that fit what is compared, then the value (none for "is empty" and the like).
 */
function FiltersWidget(p: NodeWidgetProps) {
  const { list, locked } = useRows(p);
  const item = useItemType();
  return <FileTestRows value={list.value} onChange={list.onChange} max={list.max} invalidRows={list.invalidRows} id={list.id} onBlur={list.onBlur} keys={item === 'file' ? FILE_KEYS : undefined} typeOf={(key) => comparedType(item, key)} operators={COMPARISON_OPERATORS} tk={p.tk} locked={locked} label={list.label} />;
}

/** What to sort by: the item itself, or for a list of files one of their properties. */
function SortKeyWidget(p: NodeWidgetProps) {
  const env = useNodeWidgetEnv();
  const files = useItemType() === 'file';
  const value = str(p.value);
  // Radix keeps '' for "nothing chosen": the item itself shows as the placeholder.
  const options = [{ value: '', label: p.tk('fileKeys.item') }, ...(files || value ? FILE_KEYS.map((k) => ({ value: k, label: p.tk(`fileKeys.${k}`) })) : [])];
  return (
    <div {...ariaOf(p)} role="group" onBlur={p.onBlur}>
      <RowSelect aria-label={p.field.label ? p.tk(p.field.label) : p.field.name} value={value} options={options} disabled={p.disabled || p.readOnly || env.readOnly} onChange={(v) => p.onChange(v)} />
    </div>
  );
}

/** The list operator's own widgets: its filter rows and the property to sort by. */
export default defineNodeView(listOperatorPlugin, {
  widgets: { [LIST_OPERATOR_WIDGETS.filters]: asWidget(FiltersWidget), [LIST_OPERATOR_WIDGETS.fileKey]: asWidget(SortKeyWidget) },
});
