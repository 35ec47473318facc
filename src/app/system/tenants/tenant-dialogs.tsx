import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { TenantCreateBody, TenantUpdateBody, type Tenant } from '../../../../schemas/tenant';
import { Button } from '../../../ui/button';
import { Dialog, DialogBody, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../../ui/dialog';
import { Field } from '../../../ui/field';
import { Input } from '../../../ui/input';
import { toast } from '../../../ui/toast';
import { reportError, translatedResolver, useErrorText, type FieldRules } from '../users/admin-kit';
import { useSystemApi } from '../users/system-api';
import s from '../users/system.module.css';

/** The create body plus the repeated password (spec 5). */
export const TenantCreateForm = TenantCreateBody.extend({ confirm_password: z.string().min(1) }).refine((v) => v.password === v.confirm_password, {
  path: ['confirm_password'],
  message: 'The passwords entered twice are inconsistent',
});

const rules: FieldRules = {
  name: { max: 64 },
  admin_username: { format: 'validation.username', max: 64 },
  password: { format: 'validation.password', max: 128 },
  confirm_password: { format: 'validation.passwordMismatch', max: 128 },
};
const createResolver = translatedResolver(TenantCreateForm, rules);
const renameResolver = translatedResolver(TenantUpdateBody, rules);

interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSaved: (tenant: Tenant) => void;
}

/** New tenant with its first tenant admin (name, admin username, password twice). */
export function CreateTenantDialog({ open, onOpenChange, onSaved }: DialogProps) {
  const { t } = useTranslation(['system', 'common']);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent size="md" closeLabel={t('common:actions.close')}>
        <DialogHeader>
          <DialogTitle>{t('tenants.createTitle')}</DialogTitle>
          <DialogDescription>{t('tenants.createDescription')}</DialogDescription>
        </DialogHeader>
        <CreateTenantForm
          onDone={(x) => {
            onSaved(x);
            onOpenChange(false);
          }}
        />
      </DialogContent>
    </Dialog>
  );
}

function CreateTenantForm({ onDone }: { onDone: (tenant: Tenant) => void }) {
  const { t } = useTranslation(['system', 'common']);
  const api = useSystemApi();
  const errorText = useErrorText(rules);
  const { register, handleSubmit, formState } = useForm<z.input<typeof TenantCreateForm>, unknown, z.output<typeof TenantCreateForm>>({
    resolver: createResolver,
    defaultValues: { name: '', admin_username: '', password: '', confirm_password: '' },
  });
  const errors = formState.errors;
  const save = handleSubmit(async ({ confirm_password: _repeat, ...body }) => {
    try {
      const created = await api.createTenant(body);
      toast.success(t('tenants.created'));
      onDone(created);
    } catch (e) {
      reportError(e);
    }
  });
  return (
    <form onSubmit={save} noValidate className={s.dialogForm}>
      <DialogBody>
        <div className={s.formStack}>
          <Field label={t('tenants.fields.name')} required error={errorText('name', errors.name)}>
            <Input autoFocus autoComplete="off" {...register('name')} />
          </Field>
          <Field label={t('tenants.fields.adminUsername')} required error={errorText('admin_username', errors.admin_username)}>
            <Input autoComplete="off" {...register('admin_username')} />
          </Field>
          <Field label={t('tenants.fields.password')} required help={t('users.passwordHelp')} error={errorText('password', errors.password)}>
            <Input type="password" autoComplete="new-password" {...register('password')} />
          </Field>
          <Field label={t('tenants.fields.confirmPassword')} required error={errorText('confirm_password', errors.confirm_password)}>
            <Input type="password" autoComplete="new-password" {...register('confirm_password')} />
          </Field>
        </div>
      </DialogBody>
      <Footer submitting={formState.isSubmitting} />
    </form>
  );
}

/** A new name for a tenant (its root organisation follows on the server). */
export function RenameTenantDialog({ open, onOpenChange, onSaved, tenant }: DialogProps & { tenant: Tenant | null }) {
  const { t } = useTranslation(['system', 'common']);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent size="sm" closeLabel={t('common:actions.close')}>
        <DialogHeader>
          <DialogTitle>{t('tenants.renameTitle')}</DialogTitle>
          <DialogDescription>{tenant?.name}</DialogDescription>
        </DialogHeader>
        {tenant && (
          <RenameTenantForm
            tenant={tenant}
            onDone={(x) => {
              onSaved(x);
              onOpenChange(false);
            }}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

function RenameTenantForm({ tenant, onDone }: { tenant: Tenant; onDone: (tenant: Tenant) => void }) {
  const { t } = useTranslation(['system', 'common']);
  const api = useSystemApi();
  const errorText = useErrorText(rules);
  const { register, handleSubmit, formState } = useForm<z.input<typeof TenantUpdateBody>, unknown, z.output<typeof TenantUpdateBody>>({
    resolver: renameResolver,
    defaultValues: { name: tenant.name },
  });
  const save = handleSubmit(async (body) => {
    try {
      const saved = await api.updateTenant(tenant.id, body);
      toast.success(t('tenants.renamed'));
      onDone(saved);
    } catch (e) {
      reportError(e);
    }
  });
  return (
    <form onSubmit={save} noValidate className={s.dialogForm}>
      <DialogBody>
        <Field label={t('tenants.fields.name')} required error={errorText('name', formState.errors.name)}>
          <Input autoFocus autoComplete="off" {...register('name')} />
        </Field>
      </DialogBody>
      <Footer submitting={formState.isSubmitting} />
    </form>
  );
}

function Footer({ submitting }: { submitting: boolean }) {
  const { t } = useTranslation(['system', 'common']);
  return (
    <DialogFooter>
      <DialogClose asChild>
        <Button disabled={submitting}>{t('common:actions.cancel')}</Button>
      </DialogClose>
      <Button type="submit" variant="primary" loading={submitting}>
        {t('common:actions.save')}
      </Button>
    </DialogFooter>
  );
}
