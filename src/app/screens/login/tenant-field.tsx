import { Controller, type Control, type FieldValues, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
// Each primitive from its own file: the ui barrel would bring every component into the login page (issue 28).
import { Field } from '../../../ui/field';
import { Select } from '../../../ui/select';
import { rules, tv } from '../../shell/validation';
import type { LoginTenant } from './login-form';
import s from './login.module.css';
import { seededName } from '../../../i18n/seeded';

/** The tenant a sign-in form starts with: the configured default, else the one marked default, else the first. */
export const preselectedTenant = (tenants: LoginTenant[], defaultTenantId: string): string =>
  tenants.find((x) => x.id === defaultTenantId)?.id ?? tenants.find((x) => x.is_default)?.id ?? tenants[0]?.id ?? defaultTenantId;

export interface TenantFieldProps<T extends FieldValues & { tenantId: string }> {
  control: Control<T>;
  tenants: LoginTenant[];
  /** The form's error of `tenantId`, as react-hook-form gives it. */
  error?: string;
  controlId: string;
}

/** The tenant choice of the sign-in forms (password and code): required, shown only when there is more than one tenant. */
export function TenantField<T extends FieldValues & { tenantId: string }>({ control, tenants, error, controlId }: TenantFieldProps<T>) {
  const { t } = useTranslation(['auth']);
  if (tenants.length <= 1) return null;
  return (
    <Field label={t('login.tenant')} required error={tv(error)} controlId={controlId}>
      <Controller
        control={control}
        name={'tenantId' as Path<T>}
        rules={{ required: rules.required }}
        render={({ field }) => (
          <Select
            value={field.value as string}
            onValueChange={field.onChange}
            options={tenants.map((x) => ({ value: x.id, label: seededName(x.name) }))}
            placeholder={t('login.tenantPlaceholder')}
            ref={field.ref}
            className={s.select}
            aria-label={t('login.tenant')}
          />
        )}
      />
    </Field>
  );
}
