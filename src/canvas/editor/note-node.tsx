import { NodeResizer, type NodeProps } from '@xyflow/react';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { useFlowStore } from '../react/use-flow-store';
import { useFlowStoreApi } from '../react/use-flow-store-api';
import { selectIsSelected, selectNode } from '../store/selectors';
import { keepFieldKeys } from './use-editor-keys';
import s from './editor.module.css';

/**
 * A sticky note: free text typed on the canvas (merged into one undo step per burst of typing),
 * coloured by its theme, resizable. It is not a step: no handles.
 */
export const NoteNode = memo(function NoteNode({ id }: NodeProps) {
  const { t } = useTranslation('editor');
  const store = useFlowStoreApi();
  const node = useFlowStore(selectNode(id));
  const selected = useFlowStore(selectIsSelected(id));
  const readOnly = useFlowStore((st) => st.readOnly);
  if (!node) return null;
  const text = typeof node.config.text === 'string' ? node.config.text : '';
  const theme = typeof node.config.theme === 'string' ? node.config.theme : 'yellow';
  const author = node.config.showAuthor === true && typeof node.config.author === 'string' ? node.config.author : '';
  return (
    <div className={s.note} data-theme={theme} data-selected={selected || undefined} data-testid={`node-${id}`} data-kind={node.kind} onKeyDown={keepFieldKeys}>
      {!readOnly && <NodeResizer isVisible={selected} minWidth={160} minHeight={80} color="var(--color-primary)" onResizeStart={() => store.beginGesture()} onResizeEnd={() => store.endGesture()} />}
      <textarea
        className={`${s.noteText} nodrag nowheel`}
        value={text}
        readOnly={readOnly}
        placeholder={t('node.notePlaceholder')}
        aria-label={t('node.notePlaceholder')}
        data-testid={`note-text-${id}`}
        onChange={(e) => store.updateConfig(id, ['text'], e.target.value)}
        onBlur={() => store.sealHistory()}
      />
      {author && <div className={s.noteAuthor}>{author}</div>}
    </div>
  );
});
