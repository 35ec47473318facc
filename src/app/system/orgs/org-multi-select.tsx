import { Fragment, useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { PickerOrg } from '../../../../schemas/org';
import { Checkbox } from '../../../ui/checkbox';
import { Skeleton } from '../../../ui/skeleton';
import { flattenOrgs, indexOrgs } from './org-tree';
import s from './orgs.module.css';
import { seededName, seededPath } from '../../../i18n/seeded';

export interface OrgMultiSelectProps {
  /** The tenant's tree; undefined while it loads. */
  tree: PickerOrg[] | undefined;
  /** Chosen organisation ids in the order they were ticked (the first is the master organisation). */
  value: string[];
  onChange: (ids: string[]) => void;
  disabled?: boolean;
  /** Accessible name of the group (its visible legend). */
  label: string;
}

/**
 * A checkbox list over the organisation tree, indented by depth. Ticking appends to the value, so the
 * first ticked stays the master organisation; the summary shows the order.
 */
export function OrgMultiSelect({ tree, value, onChange, disabled, label }: OrgMultiSelectProps) {
  const { t } = useTranslation(['system', 'common']);
  const base = useId();
  const rows = useMemo(() => flattenOrgs(tree ?? []), [tree]);
  const byId = useMemo(() => indexOrgs(tree ?? []), [tree]);
  const chosen = new Set(value);
  const toggle = (id: string, on: boolean) => onChange(on ? [...value.filter((v) => v !== id), id] : value.filter((v) => v !== id));
  const known = value.filter((id) => byId.has(id));

  return (
    <fieldset className={s.picker} disabled={disabled} data-slot="org-multi-select">
      <legend className={s.legend}>{label}</legend>
      <div className={s.pickerBox} data-disabled={disabled || undefined} aria-busy={tree === undefined || undefined}>
        {tree === undefined ? (
          <div className={s.skeleton}>
            <Skeleton height={14} width="60%" />
            <Skeleton height={14} width="40%" />
          </div>
        ) : rows.length === 0 ? (
          <p className={s.pickerEmpty}>{t('orgs.pickerEmpty')}</p>
        ) : (
          rows.map(({ org, depth }) => {
            const id = `${base}-${org.id}`;
            return (
              <div key={org.id} className={s.pickerRow} style={{ paddingLeft: 10 + depth * 18 }}>
                <Checkbox id={id} checked={chosen.has(org.id)} disabled={disabled} onCheckedChange={(c) => toggle(org.id, c === true)} />
                <label htmlFor={id} title={seededPath(org.treeNames)}>
                  {seededName(org.name)}
                </label>
              </div>
            );
          })
        )}
      </div>
      <p className={s.pickerSummary} aria-live="polite">
        {t('orgs.selected')}
        {known.length === 0
          ? t('orgs.noneSelected')
          : known.map((id, i) => (
              <Fragment key={id}>
                {i > 0 && t('orgs.separator')}
                {seededPath(byId.get(id)!.treeNames)}
                {i === 0 && <span className={s.masterTag}>{t('orgs.master')}</span>}
              </Fragment>
            ))}
      </p>
      <p className={s.pickerHint}>{t('orgs.pickerHint')}</p>
    </fieldset>
  );
}
