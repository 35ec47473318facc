/**
 * The error screen's pictures (spec 2): inline SVG drawn with the theme's tokens, so they follow light
 * and dark and load nothing from the network.
 */
const stroke = 'var(--color-border-strong)';
const paper = 'var(--color-surface)';
const sunken = 'var(--color-surface-sunken)';
const accent = 'var(--color-primary)';
const muted = 'var(--color-text-placeholder)';

/** A padlocked folder: the resource exists but the user may not view it. */
export function NoPermissionPicture({ size = 160 }: { size?: number }) {
  return (
    <svg width={size} height={(size * 3) / 4} viewBox="0 0 160 120" aria-hidden="true" data-picture="no-permission">
      <ellipse cx="80" cy="108" rx="56" ry="6" fill={sunken} />
      <path d="M28 30a6 6 0 0 1 6-6h26l8 8h58a6 6 0 0 1 6 6v58a6 6 0 0 1-6 6H34a6 6 0 0 1-6-6z" fill={sunken} stroke={stroke} strokeWidth="1.5" />
      <rect x="28" y="40" width="104" height="62" rx="6" fill={paper} stroke={stroke} strokeWidth="1.5" />
      <path d="M70 66v-7a10 10 0 0 1 20 0v7" fill="none" stroke={accent} strokeWidth="3" strokeLinecap="round" />
      <rect x="64" y="64" width="32" height="24" rx="5" fill={accent} />
      <circle cx="80" cy="74" r="3" fill={paper} />
      <path d="M80 76v5" stroke={paper} strokeWidth="2.4" strokeLinecap="round" />
      <path d="M40 52h18M40 58h10" stroke={muted} strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

/** An empty box with a magnifier: the resource does not exist (or no longer does). */
export function NotFoundPicture({ size = 160 }: { size?: number }) {
  return (
    <svg width={size} height={(size * 3) / 4} viewBox="0 0 160 120" aria-hidden="true" data-picture="not-found">
      <ellipse cx="80" cy="108" rx="56" ry="6" fill={sunken} />
      <path d="M36 52l44-16 44 16v42l-44 14-44-14z" fill={paper} stroke={stroke} strokeWidth="1.5" strokeLinejoin="round" />
      <path d="M36 52l44 14 44-14M80 66v42" fill="none" stroke={stroke} strokeWidth="1.5" strokeLinejoin="round" />
      <path d="M36 52l-10 14 44 14 10-14zM124 52l10 14-44 14-10-14z" fill={sunken} stroke={stroke} strokeWidth="1.5" strokeLinejoin="round" />
      <circle cx="110" cy="30" r="13" fill={paper} stroke={accent} strokeWidth="3" />
      <path d="M119.5 39.5l9 9" stroke={accent} strokeWidth="4" strokeLinecap="round" />
      <path d="M106 26.5a5 5 0 0 1 8.5 3.5c0 3-4 3.5-4 6" fill="none" stroke={accent} strokeWidth="2.2" strokeLinecap="round" />
      <circle cx="110.5" cy="39" r="1.4" fill={accent} />
    </svg>
  );
}

/** A signpost with a question mark: a page that does not exist (404). */
export function LostPicture({ size = 160 }: { size?: number }) {
  return (
    <svg width={size} height={(size * 3) / 4} viewBox="0 0 160 120" aria-hidden="true" data-picture="lost">
      <ellipse cx="80" cy="108" rx="56" ry="6" fill={sunken} />
      <path d="M80 30v76" stroke={stroke} strokeWidth="4" strokeLinecap="round" />
      <path d="M46 34h56l10 10-10 10H46z" fill={paper} stroke={stroke} strokeWidth="1.5" strokeLinejoin="round" />
      <path d="M114 62H58l-10 10 10 10h56z" fill={sunken} stroke={stroke} strokeWidth="1.5" strokeLinejoin="round" />
      <path d="M58 44h30M66 72h36" stroke={muted} strokeWidth="2.4" strokeLinecap="round" />
      <text x="124" y="32" fontSize="22" fontWeight="700" fill={accent} fontFamily="var(--font-sans)">?</text>
    </svg>
  );
}
