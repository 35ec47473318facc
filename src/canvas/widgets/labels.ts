import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { valueTypeLabelKey, type ValueType } from '../../plugin-sdk';
import { VALUE_TYPE_NS, type VariableGroup, type VariableOption } from './variables';

type T = (key: string, opts?: Record<string, unknown>) => string;

/**
 * Labels of variable groups and options, translated at render: a node's typed title or its kind's
 * title, the namespaces' names, a port's label key or its path.
 */
export function useVariableLabels() {
  const { t: raw, i18n } = useTranslation('inspector');
  const t = raw as unknown as T;
  const groupTitle = useCallback(
    (g: Pick<VariableGroup, 'kind' | 'title' | 'titleKey' | 'ns'>) => {
      if (g.kind === 'sys' || g.kind === 'env' || g.kind === 'conversation') return t(`variable.namespaces.${g.kind}`);
      if (g.title) return g.title;
      return g.titleKey && g.ns ? t(`${g.ns}:${g.titleKey}`) : '';
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, i18n.language],
  );
  const optionLabel = useCallback(
    (o: VariableOption) => (o.labelKey && o.ns && i18n.exists(`${o.ns}:${o.labelKey}`) ? t(`${o.ns}:${o.labelKey}`) : ''),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, i18n.language],
  );
  const typeLabel = useCallback((type: ValueType) => t(`${VALUE_TYPE_NS}:${valueTypeLabelKey(type)}`), [t]);
  return { t, groupTitle, optionLabel, typeLabel };
}

/** A `t` of the inspector namespace that takes computed keys (`${ns}:${key}`, `prompt.roles.${role}`). */
export function useInspectorT() {
  const { t, i18n } = useTranslation('inspector');
  return { t: t as unknown as T, i18n };
}
