import { useTranslation } from 'react-i18next';
import { defineNodeView } from '../../src/plugin-sdk/view';
import { Textarea } from '../../src/ui/textarea';
import { asWidget, blankRow, RowList, useRowBase, widgetStyles as s, type NodeWidgetProps } from '../../src/canvas/widgets/kit';
import { CLASSIFIER_WIDGETS, questionClassifierPlugin } from './manifest';

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/**
 * The next class id: one more than the largest numeric id in use (Dify numbers its classes), so
 * ids stay short, unique and valid as handle ids.
 * @example nextClassId(['1', '2', 'x']) // '3'
 */
export function nextClassId(ids: readonly string[]): string {
  const max = ids.reduce((m, id) => (/^\d+$/.test(id) ? Math.max(m, Number(id)) : m), 0);
  return String(max + 1);
}

/** Classifier classes `[{ id, name }]`; the id (also the branch handle) is generated. */
function ClassListWidget(p: NodeWidgetProps) {
  const { t } = useTranslation('inspector');
  const { list, locked } = useRowBase(p);
  return (
    <RowList
      {...list}
      addLabel={t('rows.addClass')}
      newRow={(rows) => blankRow(p, { id: nextClassId(rows.map((r) => str(r.id))) })}
      renderRow={(row, update, i) => (
        <Textarea
          className={s.wide}
          rows={2}
          value={str(row.name)}
          readOnly={locked}
          aria-label={t('rows.className', { index: i + 1 })}
          placeholder={t('rows.classPlaceholder')}
          onChange={(e) => update({ name: e.target.value })}
        />
      )}
    />
  );
}

/** The classifier's own widget: its classes, each a branch. */
export default defineNodeView(questionClassifierPlugin, {
  widgets: { [CLASSIFIER_WIDGETS.classList]: asWidget(ClassListWidget) },
});
