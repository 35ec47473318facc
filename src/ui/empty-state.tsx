import { Inbox } from 'lucide-react';
import type { ComponentProps, ReactNode } from 'react';
import { cn } from './cn';
import s from './empty-state.module.css';

export interface EmptyStateProps extends Omit<ComponentProps<'div'>, 'title'> {
  /** Icon or illustration; defaults to an inbox icon. Pass `null` for none. */
  icon?: ReactNode;
  title: ReactNode;
  description?: ReactNode;
  /** Usually a primary <Button> ("Create the first app"). */
  action?: ReactNode;
  /** 'sm' for inside tables and panels, 'md' (default) for whole pages. */
  size?: 'sm' | 'md';
}

/**
 * What a list shows when it has nothing.
 * @example <EmptyState title={t('apps.empty')} action={<Button variant="primary">{t('apps.create')}</Button>} />
 */
export function EmptyState({ icon, title, description, action, size = 'md', className, ...props }: EmptyStateProps) {
  const shown = icon === undefined ? <Inbox aria-hidden="true" /> : icon;
  return (
    <div data-slot="empty-state" data-size={size} className={cn(s.root, className)} {...props}>
      {shown != null && <div className={s.icon}>{shown}</div>}
      <p className={s.title}>{title}</p>
      {description != null && <p className={s.description}>{description}</p>}
      {action != null && <div className={s.action}>{action}</div>}
    </div>
  );
}
