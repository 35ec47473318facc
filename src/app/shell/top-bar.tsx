import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LogoMark } from './logo';
import s from './top-bar.module.css';

export interface TopBarProps {
  /** Where the logo leads. Default /operation. */
  homeHref?: string;
  /** Switchers after the logo (platform, workspace). */
  left?: ReactNode;
  /** Language switcher, user menu. */
  right?: ReactNode;
}

/** The 48 px bar on top of every signed-in page: logo, switchers, language, user menu. */
export function TopBar({ homeHref = '/operation', left, right }: TopBarProps) {
  const { t } = useTranslation(['shell', 'common', 'auth']);
  return (
    <header className={s.bar} data-testid="top-bar">
      <Link to={homeHref} className={s.brand} aria-label={t('home')}>
        <LogoMark />
        <span className={s.brandName}>{t('common:appName')}</span>
      </Link>
      {left != null && <div className={s.left}>{left}</div>}
      <div className={s.spacer} />
      {right != null && <div className={s.right}>{right}</div>}
    </header>
  );
}

/** The thin slash between switchers. */
export function TopBarDivider() {
  return (
    <span className={s.divider} aria-hidden="true">
      /
    </span>
  );
}
