import s from './top-bar.module.css';

/** The Weft mark: three woven threads (inline SVG, nothing loaded from the network). */
export function LogoMark({ size = 22 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" className={s.logoMark}>
      <rect width="24" height="24" rx="6" fill="var(--color-primary)" />
      <path d="M5 8.5h14M5 12h14M5 15.5h14" stroke="rgb(255 255 255 / 0.45)" strokeWidth="1.6" strokeLinecap="round" />
      <path d="M8.5 5.5v13M15.5 5.5v13" stroke="#fff" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}
