/**
 * The one page layout of the console (issue 28): every screen inside a layout is a {@link Page} (the
 * padded body) starting with a {@link PageHeader}; the strips above it (breadcrumb, project-space or
 * store tabs) are {@link PageBand}s. Width rule: everything spans the content area, full width, with
 * the same gutters, so the breadcrumb, the tab bar, the heading, the tables and the pagers line up at
 * any window width. A form that reads better narrow limits its own block (`PageSection`), never the
 * page. Also the "arrives in a later release" placeholder of skeleton pages.
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

export type PageProps = ComponentProps<'div'>;

/**
 * The padded body of a page: full width, the console's gutters. `data-slot="page"` is always set
 * (layout tests find every page by it).
 * @example <Page data-testid="tools-page"><PageHeader title={t('title')} actions={…} />…</Page>
 */
export function Page({ className, ...props }: PageProps) {
  return <div {...props} data-slot="page" className={cn(s.page, className)} />;
}

/**
 * A strip above the page (breadcrumb, tabs) whose content lines up with the page's: the same gutters.
 * @example <PageBand className={s.header}><RouteBreadcrumb /><ProjectTabs … /></PageBand>
 */
export function PageBand({ className, ...props }: ComponentProps<'div'>) {
  return <div data-slot="page-band" className={cn(s.band, className)} {...props} />;
}

/**
 * The row of a list's pager: under the list, at its right edge, on every page (the page keeps spec 9's
 * 80 px of room under it).
 * @example <PagePager><Pagination … /></PagePager>
 */
export function PagePager({ className, ...props }: ComponentProps<'div'>) {
  return <div data-slot="page-pager" className={cn(s.pager, className)} {...props} />;
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
