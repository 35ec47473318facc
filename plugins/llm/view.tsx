import { defineNodeView } from '../../src/plugin-sdk/view';
import { asWidget, RowSelect, RowList, TemplateEditor, useInspectorT, useNodeWidgetEnv, widgetStyles as s, type NodeWidgetProps } from '../../src/canvas/widgets/kit';
import { LLM_WIDGETS, llmPlugin } from './manifest';

type Row = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : '');
const ROLES = ['system', 'user', 'assistant'] as const;

/** Chat messages `[{ role, text }]`, each a template editor; add, remove and reorder. */
function PromptMessagesWidget(p: NodeWidgetProps) {
  const { t } = useInspectorT();
  const env = useNodeWidgetEnv();
  const locked = p.readOnly || p.disabled || env.readOnly;
  const rows = (Array.isArray(p.value) ? p.value : []) as Row[];
  return (
    <RowList
      id={p.id}
      label={p.field.label ? p.tk(p.field.label) : p.field.name}
      value={rows}
      onChange={(v) => p.onChange(v)}
      onBlur={p.onBlur}
      readOnly={locked}
      reorder
      max={p.field.checks.maxLength}
      addLabel={t('prompt.add')}
      newRow={(list) => ({ role: list.at(-1)?.role === 'user' ? 'assistant' : 'user', text: '' })}
      renderRow={(row, update, i) => (
        <>
          <RowSelect
            aria-label={t('prompt.role', { index: i + 1 })}
            value={str(row.role) || 'user'}
            options={ROLES.map((r) => ({ value: r, label: t(`prompt.roles.${r}`) }))}
            disabled={locked}
            onChange={(v) => update({ role: v })}
          />
          <TemplateEditor
            className={s.wide}
            rows={row.role === 'system' ? 5 : 3}
            aria-label={t('prompt.text', { index: i + 1, role: t(`prompt.roles.${str(row.role) || 'user'}`) })}
            large={t('prompt.text', { index: i + 1, role: t(`prompt.roles.${str(row.role) || 'user'}`) })}
            placeholder={t('prompt.placeholder')}
            value={str(row.text)}
            readOnly={locked}
            onChange={(v) => update({ text: v })}
          />
        </>
      )}
    />
  );
}

/** The LLM node's own widget: its prompt messages. */
export default defineNodeView(llmPlugin, {
  widgets: { [LLM_WIDGETS.promptMessages]: asWidget(PromptMessagesWidget) },
});
