import { seededName } from '../../../i18n/seeded';
import { useEffect } from 'react';
import { Controller, useForm, type FieldError, type UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import type { CurrentUser, SystemRole } from '../../../../schemas/auth';
import type { Tenant } from '../../../../schemas/tenant';
import { UserCreateBody, UserUpdateBody, type AdminUser } from '../../../../schemas/user';
import { Button } from '../../../ui/button';
import { Dialog, DialogBody, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../../ui/dialog';
import { Field } from '../../../ui/field';
import { Input } from '../../../ui/input';
import { Select } from '../../../ui/select';
import { toast } from '../../../ui/toast';
import { OrgMultiSelect } from '../orgs/org-multi-select';
import { reportError, translatedResolver, useErrorText, useLoad, type FieldRules } from './admin-kit';
import { useSystemApi } from './system-api';
import s from './system.module.css';

/** The create body plus the repeated password (spec 5: 'The passwords entered twice are inconsistent'). */
export const UserCreateForm = UserCreateBody.extend({ confirm_password: z.string().min(1) }).refine((v) => v.password === v.confirm_password, {
  path: ['confirm_password'],
  message: 'The passwords entered twice are inconsistent',
});
type CreateIn = z.input<typeof UserCreateForm>;
type UpdateIn = z.input<typeof UserUpdateBody>;

const rules: FieldRules = {
  username: { format: 'validation.username', max: 64 },
  password: { format: 'validation.password', max: 128 },
  confirm_password: { format: 'validation.passwordMismatch', max: 128 },
  realName: { max: 64 },
  nickname: { max: 64 },
  email: { format: 'validation.email', max: 128 },
  phone: { format: 'validation.phone', max: 20 },
};
const createResolver = translatedResolver(UserCreateForm, rules);
const updateResolver = translatedResolver(UserUpdateBody, rules);

const ROLES: SystemRole[] = ['user', 'tenant_admin', 'super_admin'];

export interface UserFormDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Absent: create a user. */
  user?: AdminUser | null;
  me: CurrentUser;
  /** The tenant the list shows (a super admin's filter); new users go there by default. */
  tenantId: string;
  /** Tenants a super admin may pick for a new user. */
  tenants?: Tenant[];
  onSaved: (user: AdminUser) => void;
}

/**
 * Create or edit a user (react-hook-form over UserCreateBody / UserUpdateBody, the schemas the server
 * validates with). A tenant admin cannot grant super_admin; nobody changes their own role.
 */
export function UserFormDialog({ open, onOpenChange, user, me, tenantId, tenants, onSaved }: UserFormDialogProps) {
  const { t } = useTranslation(['system', 'common']);
  const editing = Boolean(user);
  const done = (u: AdminUser) => {
    onSaved(u);
    onOpenChange(false);
  };
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent size="lg" closeLabel={t('common:actions.close')} {...(user ? {} : { 'aria-describedby': undefined })}>
        <DialogHeader>
          <DialogTitle>{editing ? t('users.editTitle') : t('users.createTitle')}</DialogTitle>
          {user && <DialogDescription>{user.username}</DialogDescription>}
        </DialogHeader>
        {/* Radix mounts the content only while open: each opening starts a fresh form. */}
        {user ? (
          <EditUserForm user={user} me={me} onDone={done} onCancel={() => onOpenChange(false)} />
        ) : (
          <CreateUserForm me={me} tenantId={tenantId} tenants={tenants} onDone={done} onCancel={() => onOpenChange(false)} />
        )}
      </DialogContent>
    </Dialog>
  );
}

function useRoleOptions(me: CurrentUser) {
  const { t } = useTranslation(['system', 'common']);
  return ROLES.filter((r) => r !== 'super_admin' || me.role === 'super_admin').map((r) => ({ value: r, label: t(`roles.${r}`) }));
}

/** The tenant's tree for the organisation checkboxes (a super admin names the tenant). */
function useTree(me: CurrentUser, tenantId: string | undefined) {
  const api = useSystemApi();
  const scoped = me.role === 'super_admin' && tenantId ? { tenant_id: tenantId } : {};
  const tree = useLoad((signal) => api.orgTree(scoped, { signal }), [api, scoped.tenant_id]);
  return tree.data;
}

interface FormProps {
  me: CurrentUser;
  onDone: (user: AdminUser) => void;
  onCancel: () => void;
}

function CreateUserForm({ me, tenantId, tenants, onDone, onCancel }: FormProps & { tenantId: string; tenants?: Tenant[] }) {
  const { t } = useTranslation(['system', 'common']);
  const api = useSystemApi();
  const errorText = useErrorText(rules);
  const isSuper = me.role === 'super_admin';
  const roleOptions = useRoleOptions(me);
  const form = useForm<CreateIn, unknown, z.output<typeof UserCreateForm>>({
    resolver: createResolver,
    defaultValues: {
      username: '',
      password: '',
      confirm_password: '',
      realName: '',
      nickname: '',
      email: '',
      phone: '',
      role: 'user',
      org_ids: [],
      ...(isSuper ? { tenant_id: tenantId } : {}),
    },
  });
  const { register, control, handleSubmit, formState, watch, setValue } = form;
  const errors = formState.errors;
  const chosenTenant = watch('tenant_id');
  const tree = useTree(me, isSuper ? chosenTenant : undefined);

  // Organisations belong to one tenant: a new tenant starts with none chosen.
  useEffect(() => {
    setValue('org_ids', []);
  }, [chosenTenant, setValue]);

  const save = handleSubmit(async (v) => {
    const { confirm_password: _repeat, tenant_id, ...body } = v;
    try {
      const created = await api.createUser({ ...body, ...(isSuper && tenant_id ? { tenant_id } : {}) });
      toast.success(t('users.created'));
      onDone(created);
    } catch (e) {
      reportError(e);
    }
  });

  return (
    <form onSubmit={save} noValidate className={s.dialogForm} aria-label={t('users.createTitle')}>
      <DialogBody>
        <div className={s.formGrid}>
          {isSuper && (
            <Controller
              control={control}
              name="tenant_id"
              render={({ field }) => (
                <Field label={t('users.fields.tenant')} className={s.span2}>
                  <Select value={field.value} onValueChange={field.onChange} options={(tenants ?? []).map((x) => ({ value: x.id, label: seededName(x.name) }))} />
                </Field>
              )}
            />
          )}
          <Field label={t('users.fields.username')} required error={errorText('username', errors.username)}>
            <Input autoComplete="off" autoFocus {...register('username')} />
          </Field>
          <Controller
            control={control}
            name="role"
            render={({ field }) => (
              <Field label={t('users.fields.role')}>
                <Select value={field.value} onValueChange={field.onChange} options={roleOptions} />
              </Field>
            )}
          />
          <Field label={t('users.fields.password')} required help={t('users.passwordHelp')} error={errorText('password', errors.password)}>
            <Input type="password" autoComplete="new-password" {...register('password')} />
          </Field>
          <Field label={t('users.fields.confirmPassword')} required error={errorText('confirm_password', errors.confirm_password)}>
            <Input type="password" autoComplete="new-password" {...register('confirm_password')} />
          </Field>
          <ProfileFields register={register} errors={errors} errorText={errorText} />
          <div className={s.span2}>
            <Controller
              control={control}
              name="org_ids"
              render={({ field }) => <OrgMultiSelect label={t('users.fields.orgs')} tree={tree} value={field.value ?? []} onChange={field.onChange} />}
            />
          </div>
        </div>
      </DialogBody>
      <FormFooter submitting={formState.isSubmitting} onCancel={onCancel} />
    </form>
  );
}

function EditUserForm({ user, me, onDone, onCancel }: FormProps & { user: AdminUser }) {
  const { t } = useTranslation(['system', 'common']);
  const api = useSystemApi();
  const errorText = useErrorText(rules);
  const roleOptions = useRoleOptions(me);
  const self = user.id === me.id;
  const form = useForm<UpdateIn, unknown, z.output<typeof UserUpdateBody>>({
    resolver: updateResolver,
    defaultValues: {
      realName: user.realName,
      nickname: user.nickname,
      email: user.email,
      phone: user.phone,
      role: user.role,
      org_ids: user.orgs.map((o) => o.id),
    },
  });
  const { register, control, handleSubmit, formState } = form;
  const errors = formState.errors;
  const tree = useTree(me, user.tenant_id);

  const save = handleSubmit(async (v) => {
    try {
      const saved = await api.updateUser(user.id, self ? { ...v, role: undefined } : v);
      toast.success(t('users.saved'));
      onDone(saved);
    } catch (e) {
      reportError(e);
    }
  });

  return (
    <form onSubmit={save} noValidate className={s.dialogForm} aria-label={t('users.editTitle')}>
      <DialogBody>
        <div className={s.formGrid}>
          <Field label={t('users.fields.username')}>
            <Input value={user.username} readOnly disabled />
          </Field>
          <Controller
            control={control}
            name="role"
            render={({ field }) => (
              <Field label={t('users.fields.role')} help={self ? t('users.selfRoleHint') : undefined}>
                <Select value={field.value} onValueChange={field.onChange} options={roleOptions} disabled={self} />
              </Field>
            )}
          />
          <ProfileFields register={register} errors={errors} errorText={errorText} />
          <div className={s.span2}>
            <Controller
              control={control}
              name="org_ids"
              render={({ field }) => <OrgMultiSelect label={t('users.fields.orgs')} tree={tree} value={field.value ?? []} onChange={field.onChange} />}
            />
          </div>
        </div>
      </DialogBody>
      <FormFooter submitting={formState.isSubmitting} onCancel={onCancel} />
    </form>
  );
}

type ProfileName = 'realName' | 'nickname' | 'email' | 'phone';
/** Both forms share these four text fields. */
interface ProfileFieldsProps {
  register: (name: ProfileName) => UseFormRegisterReturn;
  errors: Partial<Record<ProfileName, FieldError>>;
  errorText: ReturnType<typeof useErrorText>;
}

function ProfileFields({ register, errors, errorText }: ProfileFieldsProps) {
  const { t } = useTranslation(['system', 'common']);
  return (
    <>
      <Field label={t('users.fields.realName')} error={errorText('realName', errors.realName)}>
        <Input autoComplete="off" {...register('realName')} />
      </Field>
      <Field label={t('users.fields.nickname')} error={errorText('nickname', errors.nickname)}>
        <Input autoComplete="off" {...register('nickname')} />
      </Field>
      <Field label={t('users.fields.email')} error={errorText('email', errors.email)}>
        <Input type="email" autoComplete="off" {...register('email')} />
      </Field>
      <Field label={t('users.fields.phone')} error={errorText('phone', errors.phone)}>
        <Input type="tel" autoComplete="off" {...register('phone')} />
      </Field>
    </>
  );
}

function FormFooter({ submitting, onCancel }: { submitting: boolean; onCancel: () => void }) {
  const { t } = useTranslation(['system', 'common']);
  return (
    <DialogFooter>
      <DialogClose asChild>
        <Button disabled={submitting} onClick={onCancel}>
          {t('common:actions.cancel')}
        </Button>
      </DialogClose>
      <Button type="submit" variant="primary" loading={submitting}>
        {t('common:actions.save')}
      </Button>
    </DialogFooter>
  );
}
