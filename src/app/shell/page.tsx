/**
 * Page building blocks used by every screen inside a layout: the page header (title, description,
 * actions), the padded page body, and the "arrives in a later release" placeholder of skeleton pages.
 */
import { Construction } from 'lucide-react';
import type { ComponentProps, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '../../ui/cn';
import { EmptyState } from '../../ui/empty-state';
import s from './page.module.css';

export interface PageHeaderProps extends Omit<ComponentProps<'header'>, 'title'> {
  title: ReactNode;
  description?: ReactNode;
  /** Buttons on the right. */
  actions?: ReactNode;
  /** Small element before the title (an icon or avatar). */
  leading?: ReactNode;
}

/** The heading row of a page. */
export function PageHeader({ title, description, actions, leading, className, ...props }: PageHeaderProps) {
  return (
    <header data-slot="page-header" className={cn(s.header, className)} {...props}>
      {leading != null && <div className={s.leading}>{leading}</div>}
      <div className={s.heading}>
        <h1 className={s.title}>{title}</h1>
        {description != null && <p className={s.description}>{description}</p>}
      </div>
      {actions != null && <div className={s.actions}>{actions}</div>}
    </header>
  );
}

export interface PageProps extends ComponentProps<'div'> {
  /** 'full' stretches to the container; 'narrow' caps at 720 px (forms); default caps at 1280 px. */
  width?: 'default' | 'narrow' | 'full';
}

/** The padded, width-capped body of a page. */
export function Page({ width = 'default', className, ...props }: PageProps) {
  return <div data-slot="page" data-width={width} className={cn(s.page, className)} {...props} />;
}

export interface ComingSoonProps {
  /** The page title (already translated). */
  title: string;
  /** Show the page heading above the placeholder (skeleton pages do; nested panels may not). */
  showHeading?: boolean;
  className?: string;
}

/**
 * The body of a page whose screen arrives in a later release: a real page with its heading and an empty
 * state saying so. The surrounding layout supplies navigation and breadcrumb.
 */
export function ComingSoon({ title, showHeading = true, className }: ComingSoonProps) {
  const { t } = useTranslation(['pages', 'common', 'errors']);
  return (
    <Page className={className} data-testid="skeleton-page">
      {showHeading && <PageHeader title={title} />}
      <div className={s.placeholder}>
        <EmptyState
          icon={<Construction aria-hidden="true" />}
          title={t('skeleton.title', { name: title })}
          description={t('skeleton.description')}
        />
      </div>
    </Page>
  );
}
