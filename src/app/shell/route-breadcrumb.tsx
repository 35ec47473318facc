import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Breadcrumb, type BreadcrumbLinkProps } from '../../ui/breadcrumb';
import { useCrumbs } from './route-handle';

export interface BreadcrumbTrailProps {
  items: { label: string; href?: string }[];
  className?: string;
}

const routerLink = ({ href, className, children }: BreadcrumbLinkProps) => (
  <Link to={href} className={className}>
    {children}
  </Link>
);

/** A breadcrumb whose links go through the router. Hidden when there is nothing to trail. */
export function BreadcrumbTrail({ items, className }: BreadcrumbTrailProps) {
  const { t } = useTranslation(['shell', 'common', 'auth']);
  if (items.length === 0) return null;
  return (
    <Breadcrumb
      aria-label={t('breadcrumb')}
      data-testid="breadcrumb"
      className={className}
      items={items.map((c, i) => ({ label: c.label, href: c.href, key: `${i}:${c.href ?? c.label}` }))}
      renderLink={routerLink}
    />
  );
}

/** The breadcrumb of the current route (from the routes' `handle.crumb`). */
export function RouteBreadcrumb({ className }: { className?: string }) {
  return <BreadcrumbTrail items={useCrumbs()} className={className} />;
}
