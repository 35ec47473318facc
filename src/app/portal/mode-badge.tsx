import { useTranslation } from 'react-i18next';
import type { FlowMode } from '../../../schemas/flow';
import { Badge } from '../../ui/badge';
import { MODE_BADGE } from '../workspace/apps/app-modes';

/** An app's mode as a badge, in the colours of the console's app list. */
export function PortalModeBadge({ mode }: { mode: FlowMode }) {
  const { t } = useTranslation('portal');
  return (
    <Badge variant={MODE_BADGE[mode]} appearance="outline" data-mode={mode}>
      {t(`modes.${mode}`)}
    </Badge>
  );
}
