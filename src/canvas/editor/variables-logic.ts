import {
  CONVERSATION_VALUE_TYPES,
  defaultValueFor,
  matchesValueType,
  VARIABLE_NAME_RE,
  type ConversationVariable,
  type EnvVariable,
  type FlowDocument,
} from '../../../schemas/flow';
import type { FlowStore } from '../store/create-flow-store';

/**
 * The variables dialogs edit rows of text (what the inputs hold) and turn them into the document's
 * typed variables on save, as one undoable store edit. Kept apart from the view so the parsing is
 * unit-tested.
 */

export type VariableList = 'env' | 'conversation';
export const ENV_TYPES = ['string', 'number', 'secret'] as const;
export { CONVERSATION_VALUE_TYPES };

/** One row being edited: the value as typed (JSON for objects and lists). */
export interface VariableRow {
  id: string;
  name: string;
  type: string;
  value: string;
  description: string;
}

/** Per row, the field keys (`flowtools:variables.errors.*`) that are wrong. */
export type RowError = { name?: 'name' | 'nameTaken'; value?: 'number' | 'json' };
export type RowErrors = Record<string, RowError>;

export function rowsOf(doc: FlowDocument, list: VariableList): VariableRow[] {
  if (list === 'env') {
    return doc.variables.env.map((v) => ({ id: v.id, name: v.name, type: v.type, value: v.type === 'secret' ? '' : String(v.value ?? ''), description: v.description }));
  }
  return doc.variables.conversation.map((v) => ({
    id: v.id,
    name: v.name,
    type: v.type,
    value: v.type === 'string' ? String(v.value ?? '') : JSON.stringify(v.value),
    description: v.description,
  }));
}

/** A fresh row with an id no other variable of the list has. */
export function newRow(rows: readonly VariableRow[], list: VariableList): VariableRow {
  const prefix = list === 'env' ? 'env' : 'conv';
  const taken = new Set(rows.map((r) => r.id));
  let i = rows.length + 1;
  while (taken.has(`${prefix}_${i}`)) i++;
  const type = 'string';
  return { id: `${prefix}_${i}`, name: '', type, value: '', description: '' };
}

/** The value a row holds for its type; undefined when it does not parse. */
function parseValue(row: VariableRow): { ok: true; value: unknown } | { ok: false } {
  if (row.type === 'string' || row.type === 'secret') return { ok: true, value: row.value };
  if (row.type === 'number') {
    const n = Number(row.value);
    return row.value.trim() !== '' && Number.isFinite(n) ? { ok: true, value: n } : { ok: false };
  }
  if (row.value.trim() === '') return { ok: true, value: defaultValueFor(row.type as (typeof CONVERSATION_VALUE_TYPES)[number]) };
  try {
    const v: unknown = JSON.parse(row.value);
    return matchesValueType(v, row.type as (typeof CONVERSATION_VALUE_TYPES)[number]) ? { ok: true, value: v } : { ok: false };
  } catch {
    return { ok: false };
  }
}

export function validateRows(rows: readonly VariableRow[]): RowErrors {
  const errors: RowErrors = {};
  const seen = new Map<string, number>();
  for (const r of rows) seen.set(r.name, (seen.get(r.name) ?? 0) + 1);
  for (const r of rows) {
    const e: RowError = {};
    if (!VARIABLE_NAME_RE.test(r.name)) e.name = 'name';
    else if (seen.get(r.name)! > 1) e.name = 'nameTaken';
    if (!parseValue(r).ok) e.value = r.type === 'number' ? 'number' : 'json';
    if (e.name || e.value) errors[r.id] = e;
  }
  return errors;
}

/**
 * Writes the rows into the document as one undo step (nothing when invalid or unchanged). A secret
 * left empty keeps what the server stores (it is sent without `value`).
 */
export function saveRows(store: FlowStore, list: VariableList, rows: readonly VariableRow[]): boolean {
  if (Object.keys(validateRows(rows)).length) return false;
  if (list === 'env') {
    const env: EnvVariable[] = rows.map((r) => {
      const base = { id: r.id, name: r.name, description: r.description };
      if (r.type === 'number') return { ...base, type: 'number', value: Number(r.value) };
      if (r.type === 'secret') return r.value ? { ...base, type: 'secret', value: r.value } : { ...base, type: 'secret' };
      return { ...base, type: 'string', value: r.value };
    });
    return store.edit((d) => {
      if (JSON.stringify(d.variables.env) !== JSON.stringify(env)) d.variables.env = env;
    });
  }
  const conversation: ConversationVariable[] = rows.map((r) => {
    const parsed = parseValue(r);
    return { id: r.id, name: r.name, type: r.type as ConversationVariable['type'], value: parsed.ok ? parsed.value : null, description: r.description };
  });
  return store.edit((d) => {
    if (JSON.stringify(d.variables.conversation) !== JSON.stringify(conversation)) d.variables.conversation = conversation;
  });
}
