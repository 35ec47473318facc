import { useCallback, useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { NodeConfig } from '../../../schemas/flow';
import { encodeMessage, renderBuiltinWidget, SchemaForm, useSchemaForm, type ObjectSchema, type WidgetRenderProps } from '../../kit/schema-form';
import type { AnyNodePlugin, NodeIssue } from '../../plugin-sdk';
import type { AnyEditorNodePlugin } from '../../plugin-sdk/view';
import { JsonValueEditor } from '../../kit/widgets/json-editor';
import { nodeWidgets } from '../widgets';
import { useFlowStoreApi } from '../react/use-flow-store-api';
import { issueText, issuesByField } from './logic';

export interface ConfigFormProps {
  plugin: AnyNodePlugin;
  nodeId: string;
  /** The node's config, parsed by the plugin's schema (defaults filled). */
  config: NodeConfig;
  issues: readonly NodeIssue[];
  readOnly: boolean;
  include?: readonly string[];
  exclude?: readonly string[];
}

/**
 * The form rendered from a plugin's config schema. Every change goes straight to the store as one
 * `updateConfig(nodeId, [field], value)`: the store merges consecutive edits of one field into one
 * undo step (merge key node id + field path), and leaving the field seals that step. The form
 * follows the store (undo, redo, another view's edit) through `values`. Checklist issues show at
 * the field their path starts with.
 */
export function ConfigForm({ plugin, nodeId, config, issues, readOnly, include, exclude }: ConfigFormProps) {
  const store = useFlowStoreApi();
  const { i18n } = useTranslation('inspector');
  const api = useSchemaForm(plugin.configSchema as unknown as ObjectSchema, { values: config, include, exclude });
  const { form, fields } = api;
  const { byField } = useMemo(
    () =>
      issuesByField(
        issues,
        fields.map((f) => f.name),
      ),
    [issues, fields],
  );

  // Issues as field errors, again after each reset (a store change resets the form's errors).
  useEffect(() => {
    form.clearErrors();
    for (const [name, list] of byField) {
      const text = list.map((i) => issueText(i18n, i)).join(' · ');
      form.setError(name as never, { type: 'checklist', message: encodeMessage({ text }) });
    }
  }, [form, byField, config, i18n, i18n.language]);

  const setField = useCallback(
    (name: string, value: unknown) => {
      form.setValue(name as never, value as never);
      store.updateConfig(nodeId, [name], value);
    },
    [form, store, nodeId],
  );

  const renderWidget = useCallback(
    (p: WidgetRenderProps) => {
      const q: WidgetRenderProps = {
        ...p,
        onChange: (value: unknown) => {
          p.onChange(value);
          store.updateConfig(nodeId, [p.field.name], value);
        },
        onBlur: () => {
          p.onBlur();
          // Leaving a field ends its typing step: the next edit of it is a new undo step.
          store.sealHistory();
        },
      };
      // The kind's own widgets first (its view's), then the canvas's.
      const custom = (plugin as AnyEditorNodePlugin).view?.widgets?.[p.field.widget] ?? nodeWidgets[p.field.widget];
      // Node widgets also get the whole config and a setter of sibling fields (a tool and its function).
      if (custom) return custom({ ...q, extra: { ...p.extra, setField, config } });
      return renderBuiltinWidget(q) ?? <JsonValueEditor value={p.value} onChange={q.onChange} readOnly={q.readOnly} disabled={q.disabled} />;
    },
    [store, nodeId, setField, config, plugin],
  );

  return <SchemaForm form={api} ns={[plugin.ns, 'inspector']} renderWidget={renderWidget} hideFooter readOnly={readOnly} />;
}
