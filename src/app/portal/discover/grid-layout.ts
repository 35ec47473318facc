/**
 * Discover lays its cards out in rows, so that a long list can be virtualised row by row: how many
 * cards fit in a row for a width, and the apps cut into rows. Pure.
 */

/** The narrowest a card gets, and the gap between cards (px; the CSS uses the same). */
export const CARD_MIN_WIDTH = 280;
export const CARD_GAP = 12;

/** Cards per row in a container `width` px wide (at least one). */
export function columnsFor(width: number, min = CARD_MIN_WIDTH, gap = CARD_GAP): number {
  if (!Number.isFinite(width) || width <= 0) return 1;
  return Math.max(1, Math.floor((width + gap) / (min + gap)));
}

/** The items cut into rows of `columns`. */
export function toRows<T>(items: readonly T[], columns: number): T[][] {
  const n = Math.max(1, Math.floor(columns));
  const rows: T[][] = [];
  for (let i = 0; i < items.length; i += n) rows.push(items.slice(i, i + n));
  return rows;
}
