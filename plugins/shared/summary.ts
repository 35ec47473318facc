import type { NodeSummaryRow } from '../../src/plugin-sdk';
import type { ModelRef } from './model';

/**
 * Helpers for the built-in kinds' `summary(config)` (the rows under a node's title on the canvas).
 * The canvas cuts each row to one line; these keep the rows few and short.
 */

/** The model a node calls, by name (nothing until one is chosen: the checklist says so). */
export const modelSummary = (model: ModelRef): NodeSummaryRow[] => (model.name ? [{ text: model.name }] : []);

/** The first `count` non-blank lines of code or a template, monospaced (at most 80 characters each). */
export function firstLines(text: string, count = 2): NodeSummaryRow[] {
  const rows: NodeSummaryRow[] = [];
  for (const line of text.split('\n')) {
    if (rows.length === count) break;
    const trimmed = line.trim();
    if (trimmed) rows.push({ text: trimmed.slice(0, 80), mono: true });
  }
  return rows;
}

/** Names joined with commas (start fields, end outputs), one row; none when empty. */
export function namesSummary(names: readonly string[], labelKey?: string): NodeSummaryRow[] {
  const shown = names.filter(Boolean);
  return shown.length ? [{ labelKey, text: shown.join(', ') }] : [];
}
