import type { i18n as I18n } from 'i18next';
import type { NodeConfig } from '../../../schemas/flow';
import type { NodeIssue } from '../../plugin-sdk';
import type { FieldDescriptor } from '../../kit/schema/fields';

/** The pure parts of the node inspector: issues by field, settings vs run-settings fields, config diffs. */

/**
 * The group id of the shared "errors and retries" fields (`runSettingsShape` of the built-in
 * plugins, and any plugin that puts fields in this group): they go to the inspector's second tab.
 */
export const RUN_SETTINGS_GROUP = 'run.group';

/** Issues cut into those shown at a field (`path[0]` names one) and the rest (shown above the form). */
export function issuesByField(issues: readonly NodeIssue[], fieldNames: readonly string[]): { byField: Map<string, NodeIssue[]>; general: NodeIssue[] } {
  const names = new Set(fieldNames);
  const byField = new Map<string, NodeIssue[]>();
  const general: NodeIssue[] = [];
  for (const i of issues) {
    const head = i.path?.[0];
    if (typeof head === 'string' && names.has(head)) (byField.get(head) ?? byField.set(head, []).get(head)!).push(i);
    else general.push(i);
  }
  return { byField, general };
}

/** Field names of the two tabs: the node's own settings, and the run settings (when it has any). */
export function splitRunSettings(fields: readonly FieldDescriptor[], group = RUN_SETTINGS_GROUP): { settings: string[]; run: string[] } {
  const settings: string[] = [];
  const run: string[] = [];
  for (const f of fields) (f.group === group ? run : settings).push(f.name);
  return { settings, run };
}

/**
 * Top-level keys whose values differ between two configs (a panel's `onChange(next)` becomes one
 * store update per changed field, so typing in a field merges into one undo step).
 */
export function changedKeys(prev: NodeConfig, next: NodeConfig): string[] {
  const keys = new Set([...Object.keys(prev), ...Object.keys(next)]);
  return [...keys].filter((k) => !Object.is(prev[k], next[k]));
}

/** The translated text of an issue. */
export function issueText(i18n: I18n, issue: Pick<NodeIssue, 'ns' | 'key' | 'params'>): string {
  const t = i18n.t.bind(i18n) as unknown as (key: string, opts?: Record<string, unknown>) => string;
  return t(`${issue.ns}:${issue.key}`, issue.params);
}
