import { useTranslation } from 'react-i18next';
import { defineNodeView } from '../../src/plugin-sdk/view';
import { TagInput } from '../../src/kit/widgets/tag-input';
import { Input } from '../../src/ui/input';
import { Switch } from '../../src/ui/switch';
import { asWidget, blankRow, elementShape, enumChoices, NameInput, RowSelect, RowList, useRowBase, widgetStyles as s, type NodeWidgetProps } from '../../src/canvas/widgets/kit';
import { START_WIDGETS, startPlugin } from './manifest';

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** Rows of the start node's form: name, label, type, required, and the type's own settings. */
function FormFieldsWidget(p: NodeWidgetProps) {
  const { t } = useTranslation('inspector');
  const { list, locked } = useRowBase(p);
  const shape = elementShape(p.field);
  const types = enumChoices(shape.type, p.tk);
  return (
    <RowList
      {...list}
      reorder
      addLabel={t('rows.addField')}
      newRow={() => blankRow(p)}
      renderRow={(row, update) => (
        <>
          <NameInput row={row} update={update} locked={locked} />
          <Input size="sm" value={str(row.label)} readOnly={locked} aria-label={t('rows.label')} placeholder={t('rows.label')} onChange={(e) => update({ label: e.target.value })} />
          <RowSelect aria-label={t('rows.type')} value={str(row.type)} options={types} disabled={locked} onChange={(v) => update({ type: v })} />
          <label className={s.inline}>
            <Switch size="sm" checked={!!row.required} disabled={locked} onCheckedChange={(v) => update({ required: v })} />
            {t('rows.required')}
          </label>
          {row.type === 'select' && (
            <TagInput
              className={s.wide}
              aria-label={t('rows.options')}
              placeholder={t('rows.options')}
              value={Array.isArray(row.options) ? (row.options as string[]) : []}
              maxTags={100}
              maxTagLength={200}
              readOnly={locked}
              onChange={(v) => update({ options: v })}
            />
          )}
          {(row.type === 'text' || row.type === 'paragraph') && (
            <Input
              size="sm"
              type="number"
              min={1}
              value={typeof row.max_length === 'number' ? String(row.max_length) : ''}
              readOnly={locked}
              aria-label={t('rows.maxLength')}
              placeholder={t('rows.maxLength')}
              onChange={(e) => update({ max_length: e.target.value ? Math.max(1, Math.round(Number(e.target.value))) : undefined })}
            />
          )}
          {(row.type === 'file' || row.type === 'file-list') && (
            <TagInput
              className={s.wide}
              aria-label={t('rows.extensions')}
              placeholder={t('rows.extensions')}
              value={Array.isArray(row.allowed_extensions) ? (row.allowed_extensions as string[]) : []}
              maxTags={50}
              maxTagLength={20}
              readOnly={locked}
              onChange={(v) => update({ allowed_extensions: v })}
            />
          )}
        </>
      )}
    />
  );
}

/** The start node's own widget: the rows of its form. */
export default defineNodeView(startPlugin, {
  widgets: { [START_WIDGETS.formFields]: asWidget(FormFieldsWidget) },
});
