import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { Button, EmptyState } from '../../../ui';
import { Page } from '../../shell/page';
import { knowledgePaths } from './knowledge-nav';

/** Opened without `dataset_id` (a hand-typed URL): send the user to the list. */
export function NoDataset({ workspaceId: given }: { workspaceId?: string }) {
  const { t } = useTranslation(['knowledge', 'common']);
  const params = useParams();
  return (
    <Page data-testid="knowledge-no-dataset">
      <EmptyState
        title={t('units.noDataset')}
        action={
          <Button asChild>
            <Link to={knowledgePaths.list(given ?? params.workspace_id ?? '')}>{t('list.title')}</Link>
          </Button>
        }
      />
    </Page>
  );
}
