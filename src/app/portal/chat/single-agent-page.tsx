import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../shell/page';

// Replaced by the real screen in the next commits.
export default function Placeholder() {
  const { t } = useTranslation('pages');
  return <ComingSoon title={t('portal.root')} />;
}
