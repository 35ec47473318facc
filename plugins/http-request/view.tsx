import { useTranslation } from 'react-i18next';
import { defineNodeView } from '../../src/plugin-sdk/view';
import { Input } from '../../src/ui/input';
import { asWidget, blankRow, elementShape, RowSelect, RowList, TemplateEditor, useRowBase, VariablePicker, type NodeWidgetProps } from '../../src/canvas/widgets/kit';
import { HTTP_REQUEST_WIDGETS, httpRequestPlugin } from './manifest';

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const sel = (v: unknown) => (Array.isArray(v) ? (v as string[]) : []);

/** `[{ key, value }]` (values may hold references), or form-data rows with a text or file value. */
function KeyValuesWidget(p: NodeWidgetProps) {
  const { t } = useTranslation('inspector');
  const { list, locked } = useRowBase(p);
  const shape = elementShape(p.field);
  const hasFile = 'file' in shape;
  return (
    <RowList
      {...list}
      addLabel={t('rows.addPair')}
      newRow={() => blankRow(p)}
      renderRow={(row, update) => (
        <>
          <Input size="sm" value={str(row.key)} readOnly={locked} aria-label={t('rows.key')} placeholder={t('rows.key')} onChange={(e) => update({ key: e.target.value })} />
          {hasFile && (
            <RowSelect
              aria-label={t('rows.type')}
              value={str(row.type) || 'text'}
              options={[
                { value: 'text', label: t('rows.text') },
                { value: 'file', label: t('rows.file') },
              ]}
              disabled={locked}
              onChange={(v) => update({ type: v })}
            />
          )}
          {hasFile && row.type === 'file' ? (
            <VariablePicker aria-label={t('rows.value')} value={sel(row.file)} types={['file', 'array[file]']} readOnly={locked} onChange={(v) => update({ file: v })} />
          ) : (
            <TemplateEditor aria-label={t('rows.value')} rows={1} value={str(row.value)} readOnly={locked} placeholder={t('rows.value')} onChange={(v) => update({ value: v })} />
          )}
        </>
      )}
    />
  );
}

/** The HTTP request's own widget: header, query and form-data rows. */
export default defineNodeView(httpRequestPlugin, {
  widgets: { [HTTP_REQUEST_WIDGETS.keyValues]: asWidget(KeyValuesWidget) },
});
