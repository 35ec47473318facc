import { Maximize2 } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../ui/button';
import { Dialog, DialogContent, DialogHeader, DialogTitle } from '../../ui/dialog';
import s from './large-editor.module.css';

/**
 * Monaco overlays that Escape closes first (suggestions, parameter hints, find). Radix listens for
 * Escape on the document in the capture phase, before Monaco sees the key, so while one is open the
 * dialog must stay: Monaco then closes its overlay itself.
 */
const MONACO_OVERLAYS = '.suggest-widget.visible, .parameter-hints-widget.visible, .find-widget.visible, .monaco-hover:not(.hidden)';

export interface LargeEditorProps {
  /** The field's label: the button's and the dialog's names. */
  label: string;
  /** Renders the same editor at the given height (px); it edits the same value as the panel's. */
  children: (height: number) => ReactNode;
  /** An icon button (named by its aria-label and tooltip) for the corner of a text box, not a labelled one under it. */
  compact?: boolean;
}

/**
 * "Open large" for an inspector editor (issue 27): the same editor in a dialog of most of the
 * viewport. Both editors write through the same onChange, so every edit lands in the canvas history.
 */
export function LargeEditor({ label, children, compact = false }: LargeEditorProps) {
  const { t } = useTranslation('inspector');
  const [open, setOpen] = useState(false);
  const height = typeof window === 'undefined' ? 600 : Math.max(300, Math.round(window.innerHeight * 0.88) - 90);
  return (
    <>
      <Button
        type="button"
        size="sm"
        variant="ghost"
        iconOnly={compact}
        className={compact ? s.corner : s.open}
        onClick={() => setOpen(true)}
        aria-label={`${t('largeEditor.open')}: ${label}`}
        title={compact ? t('largeEditor.open') : undefined}
        data-testid="open-large-editor"
      >
        <Maximize2 aria-hidden="true" /> {compact ? null : t('largeEditor.open')}
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent
          className={s.dialog}
          aria-describedby={undefined}
          data-slot="large-editor"
          onEscapeKeyDown={(e) => {
            const root = e.target instanceof Element ? e.target.closest('[data-slot="large-editor"]') : null;
            if (root?.querySelector(MONACO_OVERLAYS)) e.preventDefault();
            // (A template editor's variable list is a Radix layer above the dialog: Escape reaches it first.)
          }}
        >
          <DialogHeader>
            <DialogTitle>{t('largeEditor.title', { field: label })}</DialogTitle>
          </DialogHeader>
          <div className={s.body}>{open && children(height)}</div>
        </DialogContent>
      </Dialog>
    </>
  );
}
