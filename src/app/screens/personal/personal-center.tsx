/**
 * /personal/personal-center: the signed-in user's profile (PUT /base/profile), password
 * (POST /base/update_password; the server then ends every session, so the user signs in again) and
 * usage records (GET /web/usage-records, 10 a page).
 */
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { signOut } from '../../../api/auth';
import { updateOwnPassword, updateProfile } from '../../../api/base';
import { notify } from '../../../api/reactions';
import { Avatar, Badge, Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../ui';
import { useSession } from '../../session';
import { PasswordForm } from '../../shell/change-password-dialog';
import { Page, PageHeader } from '../../shell/page';
import { displayName } from '../../shell/user-menu';
import { UsageRecords } from '../../portal/usage/usage-records';
import { ProfileForm } from './profile-form';
import s from './personal.module.css';
import { seededName } from '../../../i18n/seeded';

export default function PersonalCenter() {
  const { t } = useTranslation(['auth', 'common', 'errors', 'pages', 'shell', 'portal']);
  const navigate = useNavigate();
  const user = useSession((st) => st.user);
  if (!user) return null;
  const name = displayName(user);
  return (
    <Page data-testid="personal-center">
      <PageHeader title={t('pages:personal.center')} description={t('profile.subtitle')} />
      <div className={s.stack}>
        <Card>
          <CardContent className={s.identity}>
            <Avatar name={name} src={user.avatar || null} size="xl" colorSeed={user.id} />
            <div className={s.identityText}>
              <span className={s.identityName}>{name}</span>
              <span className={s.identityMeta}>
                {t('profile.account')}: {user.username}
                <span aria-hidden="true"> · </span>
                {t('profile.tenant')}: {seededName(user.tenant_name)}
              </span>
            </div>
            <Badge variant={user.role === 'user' ? 'neutral' : 'primary'}>{t(`shell:role.${user.role}`)}</Badge>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>{t('profile.title')}</CardTitle>
            <CardDescription>{t('profile.description')}</CardDescription>
          </CardHeader>
          <CardContent>
            <ProfileForm
              user={user}
              onSubmit={async (values) => {
                const updated = await updateProfile(values, { reaction: 'silent' });
                useSession.getState().setUser(updated);
                notify({ level: 'success', text: t('common:states.saved') });
              }}
            />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>{t('password.title')}</CardTitle>
            <CardDescription>{t('password.description')}</CardDescription>
          </CardHeader>
          <CardContent>
            <PasswordForm
              onSubmit={(body) => updateOwnPassword(body, { reaction: 'silent' })}
              onDone={async () => {
                notify({ level: 'success', text: t('password.changed') });
                await signOut();
                navigate('/login', { replace: true });
              }}
            />
          </CardContent>
        </Card>
        <Card data-testid="usage-card">
          <CardHeader>
            <CardTitle>{t('portal:usage.title')}</CardTitle>
            <CardDescription>{t('portal:usage.description')}</CardDescription>
          </CardHeader>
          <CardContent>
            <UsageRecords />
          </CardContent>
        </Card>
      </div>
    </Page>
  );
}
