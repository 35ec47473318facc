import { ChevronRight } from 'lucide-react';
import type { ComponentProps, ReactNode } from 'react';
import { cn } from './cn';
import s from './breadcrumb.module.css';
import { useUiLabels } from './ui-labels';

export interface BreadcrumbItem {
  label: ReactNode;
  /** Omitted on the last item (the current page) and on plain-text steps. */
  href?: string;
  icon?: ReactNode;
  /** React key; defaults to href or the index. */
  key?: string;
}

export interface BreadcrumbLinkProps {
  href: string;
  className: string;
  children: ReactNode;
}

export interface BreadcrumbProps extends ComponentProps<'nav'> {
  items: BreadcrumbItem[];
  /** Render links with the router, e.g. `({ href, ...p }) => <Link to={href} {...p} />`. Default: <a>. */
  renderLink?: (props: BreadcrumbLinkProps) => ReactNode;
  separator?: ReactNode;
}

const defaultLink = ({ href, className, children }: BreadcrumbLinkProps) => (
  <a href={href} className={className}>
    {children}
  </a>
);

/**
 * Path to the current page; the last item is marked aria-current="page".
 * @example <Breadcrumb aria-label={t('nav.breadcrumb')} items={[{ label: 'Apps', href: '/apps' }, { label: app.name }]} renderLink={routerLink} />
 */
export function Breadcrumb({ items, renderLink = defaultLink, separator, className, ...props }: BreadcrumbProps) {
  const words = useUiLabels();
  return (
    <nav data-slot="breadcrumb" aria-label={words.breadcrumb} className={cn(s.root, className)} {...props}>
      <ol className={s.list}>
        {items.map((item, i) => {
          const last = i === items.length - 1;
          const content = (
            <>
              {item.icon}
              <span className={s.label}>{item.label}</span>
            </>
          );
          return (
            <li key={item.key ?? item.href ?? i} className={s.item}>
              {last || !item.href ? (
                <span className={cn(s.text, last && s.current)} aria-current={last ? 'page' : undefined}>
                  {content}
                </span>
              ) : (
                renderLink({ href: item.href, className: s.link, children: content })
              )}
              {!last && (
                <span className={s.separator} aria-hidden="true">
                  {separator ?? <ChevronRight />}
                </span>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
