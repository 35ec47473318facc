/**
 * What the approvals screens share: the state badges' tones, where an approval's item lives, and the
 * event that tells the console's bell to count again after an action.
 */
import type { Approval, ApprovalState } from '../../../schemas/approval';
import type { BadgeVariant } from '../../ui/badge';

export const STATE_TONE: Record<ApprovalState, BadgeVariant> = {
  processing: 'info',
  returned: 'warning',
  rejected: 'danger',
  canceled: 'neutral',
  agreed: 'success',
  forced_recall: 'danger',
};

/** Fired on window after an approval changed here: the bell counts again at once. */
export const APPROVALS_CHANGED = 'weft:approvals-changed';
export const approvalsChanged = () => window.dispatchEvent(new Event(APPROVALS_CHANGED));

/** Where the submitted item lives in the console (its distribution tab, its own page). */
export function itemPath(a: Pick<Approval, 'kind' | 'item_type' | 'source_id' | 'workspace_id' | 'app_mode'>): string {
  const ws = `/operation/workspace/${encodeURIComponent(a.workspace_id)}`;
  const id = encodeURIComponent(a.source_id);
  switch (a.item_type) {
    case 'app':
      return `/operation/app/${id}/${a.app_mode === 'agent' ? 'agent-builder' : a.app_mode === 'agent_team' ? 'agent-team' : 'agent-flow'}/distribute`;
    case 'dataset':
      return `${ws}/knowledge-unit?dataset_id=${id}`;
    case 'prompt':
      return `${ws}/prompt-add/${id}`;
    case 'tool':
      return `${ws}/tool/${id}`;
  }
}
