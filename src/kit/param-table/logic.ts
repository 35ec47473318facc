/**
 * The parameter table's rules (spec 3 "Parameter row", 4 "Parameter table behaviour", 5), as pure
 * functions over editor rows. No React: the component in param-table.tsx only binds these.
 *
 * Editor rows (`LocalRow`) carry a locally generated `id` and the view flag `expanded`; both are
 * removed by `stripIds`/`toSaved` before rows leave the editor.
 *
 * @example
 * const scope = { kind: 'body', subtype: 'json' } as const;
 * let rows = addRow(scope, []).rows;               // [data: object { one child }]
 * rows = updateRow(scope, rows, rows[0].children![0].id, { param_key: 'user' });
 * const saved = toSaved(scope, rows);               // ParamRow[] without ids, request_type 'body'
 * const issues = validateRows(scope, rows);         // [] when valid
 */
import {
  allowedDataTypes,
  DEFAULT_BODY_SUBTYPE,
  isTreeScope,
  paramMessageName,
  paramTableSchema,
  type BodySubtype,
  type DataType,
  type ParamMessageName,
  type ParamRow,
  type ParamScope,
  type RequestType,
} from '../../../schemas/parameter';

export type { BodySubtype, DataType, ParamRow, ParamScope };
export { allowedDataTypes, isTreeScope };

/** A row in the editor: every field present, plus the local id and the expanded flag. */
export interface LocalRow {
  /** Generated locally; never saved. */
  id: string;
  param_name: string;
  param_key: string;
  description: string;
  /** '' only for loaded rows that had none (spec 5: 'field type cannot be empty'). */
  data_type: DataType | '';
  optional_values: string;
  default_value: string;
  is_not_null: boolean;
  is_array: boolean;
  request_type?: RequestType;
  request_subtype?: BodySubtype;
  param_value: string;
  /** Present only on object rows. */
  children?: LocalRow[];
  /** View state of object rows; never saved. */
  expanded?: boolean;
}

/** The editable fields of a row (what `updateRow` patches). */
export type RowField = Exclude<keyof LocalRow, 'id' | 'children' | 'expanded'>;

/** The key of the body's root row in a json body (spec 4). */
export const BODY_ROOT_KEY = 'data';

const subtypeOf = (scope: ParamScope): BodySubtype => scope.subtype ?? DEFAULT_BODY_SUBTYPE;
const isJsonBody = (scope: ParamScope) => scope.kind === 'body' && subtypeOf(scope) === 'json';

let seq = 0;
/** Spec 3: row ids are generated locally (no crypto.randomUUID: it needs a secure context). */
export function newRowId(): string {
  seq += 1;
  return `pr-${seq.toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/** A new empty row of a table: type string; query rows go in the query. */
export function createRow(scope: ParamScope, init: Partial<Omit<LocalRow, 'id'>> = {}): LocalRow {
  return {
    id: newRowId(),
    param_name: '',
    param_key: '',
    description: '',
    data_type: 'string',
    optional_values: '',
    default_value: '',
    is_not_null: false,
    is_array: false,
    request_type: scope.kind === 'params' ? 'query_params' : scope.kind === 'body' ? 'body' : undefined,
    request_subtype: scope.kind === 'body' ? subtypeOf(scope) : undefined,
    param_value: '',
    ...init,
  };
}

// ---- tree helpers ----------------------------------------------------------------------------------

interface Located {
  row: LocalRow;
  /** The parent row, or null at the top level. */
  parent: LocalRow | null;
  siblings: LocalRow[];
  index: number;
  depth: number;
  /** Indexes from the top level down to this row. */
  path: number[];
}

/** Finds a row anywhere in the tree. */
export function findRow(rows: LocalRow[], id: string): Located | undefined {
  const walk = (list: LocalRow[], parent: LocalRow | null, path: number[]): Located | undefined => {
    for (let i = 0; i < list.length; i++) {
      const row = list[i];
      if (row.id === id) return { row, parent, siblings: list, index: i, depth: path.length, path: [...path, i] };
      if (row.children) {
        const hit = walk(row.children, row, [...path, i]);
        if (hit) return hit;
      }
    }
    return undefined;
  };
  return walk(rows, null, []);
}

/** Replaces the list that holds `id` (top level or some row's children) by `fn(list)`. */
function editSiblings(rows: LocalRow[], id: string, fn: (list: LocalRow[], index: number) => LocalRow[]): LocalRow[] {
  const i = rows.findIndex((r) => r.id === id);
  if (i >= 0) return fn(rows, i);
  let changed = false;
  const next = rows.map((r) => {
    if (changed || !r.children) return r;
    const children = editSiblings(r.children, id, fn);
    if (children === r.children) return r;
    changed = true;
    return { ...r, children };
  });
  return changed ? next : rows;
}

/** Replaces the row `id` by `fn(row)`. */
function editRow(rows: LocalRow[], id: string, fn: (row: LocalRow) => LocalRow): LocalRow[] {
  return editSiblings(rows, id, (list, i) => list.map((r, j) => (j === i ? fn(r) : r)));
}

// ---- the rules of spec 4 ---------------------------------------------------------------------------

/**
 * Spec 4: choosing object adds one child row and expands it; changing to another type removes the
 * children. A locked type (see `isLocked`) does not change.
 */
export function changeType(scope: ParamScope, rows: LocalRow[], id: string, type: DataType): LocalRow[] {
  if (isLocked(scope, rows, id, 'data_type')) return rows;
  return editRow(rows, id, (row) => {
    if (row.data_type === type) return row;
    if (type === 'object') return { ...row, data_type: type, children: [createRow(scope)], expanded: true };
    const { children: _children, expanded: _expanded, ...rest } = row;
    return { ...rest, data_type: type };
  });
}

/**
 * Spec 4: for a request body, a new first row is an object with key `data` and one child.
 * (Object rows exist only in a json body, so this is the json body's first row.)
 */
export function initBody(scope: ParamScope = { kind: 'body', subtype: 'json' }): LocalRow[] {
  return [
    createRow(scope, {
      param_key: BODY_ROOT_KEY,
      data_type: 'object',
      children: [createRow(scope)],
      expanded: true,
    }),
  ];
}

/**
 * Spec 4: in a json body, the first row's key (`data`) and its first child's type are locked.
 * Nothing else is.
 */
export function isLocked(scope: ParamScope, rows: LocalRow[], id: string, field: 'param_key' | 'data_type'): boolean {
  if (!isJsonBody(scope) || rows.length === 0) return false;
  const first = rows[0];
  // "That row" is the body's `data` root (an imported body may start with another row: not locked).
  if (first.param_key !== BODY_ROOT_KEY) return false;
  if (field === 'param_key') return first.id === id;
  return first.data_type === 'object' && first.children?.[0]?.id === id;
}

/** The request body being edited, with the rows kept for the subtypes not shown. */
export interface BodyDraft {
  subtype: BodySubtype;
  rows: LocalRow[];
  /** Rows saved per subtype when switching away from it. */
  saved: Partial<Record<BodySubtype, LocalRow[]>>;
}

/** A body draft showing `rows` in `subtype`. */
export function createBodyDraft(subtype: BodySubtype = DEFAULT_BODY_SUBTYPE, rows: LocalRow[] = []): BodyDraft {
  return { subtype, rows, saved: {} };
}

/** Spec 4: switching the body subtype saves the rows of the old subtype and loads those of the new one. */
export function switchSubtype(draft: BodyDraft, next: BodySubtype): BodyDraft {
  if (next === draft.subtype) return draft;
  return {
    subtype: next,
    rows: draft.saved[next] ?? [],
    saved: { ...draft.saved, [draft.subtype]: draft.rows },
  };
}

/** Spec 4: the first body row cannot be deleted; an only child cannot be deleted. */
export function canDelete(scope: ParamScope, rows: LocalRow[], id: string): boolean {
  const at = findRow(rows, id);
  if (!at) return false;
  if (isJsonBody(scope) && at.parent === null && at.index === 0) return false;
  if (at.parent !== null && at.siblings.length === 1) return false;
  return true;
}

/** Removes a row (and its children) when `canDelete` allows it. */
export function deleteRow(scope: ParamScope, rows: LocalRow[], id: string): LocalRow[] {
  if (!canDelete(scope, rows, id)) return rows;
  return editSiblings(rows, id, (list, i) => list.filter((_, j) => j !== i));
}

/**
 * Adds a row. Spec 4: a row added to an object row goes under it (last child, the row expands);
 * otherwise it is inserted after the current row. Without a current row it goes at the end, and the
 * first row of an empty json body is the `data` object (see `initBody`).
 * Returns the rows and the new row's id.
 */
export function addRow(scope: ParamScope, rows: LocalRow[], currentId?: string): { rows: LocalRow[]; id: string } {
  if (currentId === undefined || !findRow(rows, currentId)) {
    if (rows.length === 0 && isJsonBody(scope)) {
      const body = initBody(scope);
      return { rows: body, id: body[0].children![0].id };
    }
    const row = createRow(scope);
    return { rows: [...rows, row], id: row.id };
  }
  const current = findRow(rows, currentId)!.row;
  const row = createRow(scope);
  if (current.data_type === 'object') {
    return {
      rows: editRow(rows, currentId, (r) => ({ ...r, children: [...(r.children ?? []), row], expanded: true })),
      id: row.id,
    };
  }
  return { rows: editSiblings(rows, currentId, (list, i) => [...list.slice(0, i + 1), row, ...list.slice(i + 1)]), id: row.id };
}

/** Spec 4: with rows present, the add-parameter button shows only when the subtype is not json. */
export function showAddButton(scope: ParamScope, rows: LocalRow[]): boolean {
  return rows.length === 0 || !isJsonBody(scope);
}

/**
 * Sets fields of a row. A new data_type goes through `changeType`; locked fields stay as they are;
 * is_array is kept only where it applies (json body and response).
 */
export function updateRow(scope: ParamScope, rows: LocalRow[], id: string, patch: Partial<Pick<LocalRow, RowField>>): LocalRow[] {
  let next = rows;
  const { data_type, ...rest } = patch;
  if (data_type !== undefined && data_type !== '') next = changeType(scope, next, id, data_type);
  if (isLocked(scope, next, id, 'param_key')) delete rest.param_key;
  if (Object.keys(rest).length === 0) return next;
  return editRow(next, id, (row) => ({ ...row, ...rest }));
}

/** Expands or collapses an object row. */
export function toggleExpanded(rows: LocalRow[], id: string, expanded?: boolean): LocalRow[] {
  return editRow(rows, id, (row) => ({ ...row, expanded: expanded ?? !row.expanded }));
}

/** A row as displayed: the tree flattened in order, collapsed rows' children left out. */
export interface VisibleRow {
  row: LocalRow;
  depth: number;
  parentId: string | null;
  /** An object row (it shows the expand/collapse toggle). */
  isParent: boolean;
}

export function visibleRows(rows: LocalRow[]): VisibleRow[] {
  const out: VisibleRow[] = [];
  const walk = (list: LocalRow[], depth: number, parentId: string | null) => {
    for (const row of list) {
      const isParent = row.data_type === 'object';
      out.push({ row, depth, parentId, isParent });
      if (isParent && row.expanded && row.children) walk(row.children, depth + 1, row.id);
    }
  };
  walk(rows, 0, null);
  return out;
}

// ---- saving and loading ----------------------------------------------------------------------------

/** A saved row as it comes out of the editor (every field present, no id). */
export type StrippedRow = Omit<LocalRow, 'id' | 'expanded' | 'children'> & { children?: StrippedRow[] };

/** Spec 3: row ids are generated locally and removed before rows are returned (the view flag too). */
export function stripIds(rows: LocalRow[]): StrippedRow[] {
  return rows.map(({ id: _id, expanded: _expanded, children, ...rest }) =>
    children ? { ...rest, children: stripIds(children) } : rest,
  );
}

/**
 * The rows to save: ids stripped, children only on object rows, is_array only where it applies.
 * Spec 3: returned body rows carry request_type body and request_subtype as chosen, default form-data.
 */
export function toSaved(scope: ParamScope, rows: LocalRow[]): ParamRow[] {
  const tree = isTreeScope(scope);
  const convert = (list: StrippedRow[]): ParamRow[] =>
    list.map((r) => {
      const out: ParamRow = {
        param_name: r.param_name,
        param_key: r.param_key,
        description: r.description,
        // '' fails validation ('field type cannot be empty') before anything is saved.
        data_type: r.data_type as DataType,
        optional_values: r.optional_values,
        default_value: r.default_value,
        is_not_null: r.is_not_null,
        is_array: tree ? r.is_array : false,
        param_value: r.param_value,
      };
      if (scope.kind === 'body') {
        out.request_type = 'body';
        out.request_subtype = subtypeOf(scope);
      } else if (scope.kind === 'params') {
        out.request_type = r.request_type === 'query_path' ? 'query_path' : 'query_params';
      }
      if (r.data_type === 'object') out.children = convert(r.children ?? []);
      return out;
    });
  return convert(stripIds(rows));
}

/** Editor rows from saved rows: fresh ids, missing fields filled, object rows expanded. */
export function fromSaved(scope: ParamScope, saved: readonly Partial<ParamRow>[] | null | undefined): LocalRow[] {
  return (saved ?? []).map((r) => {
    const isObject = r.data_type === 'object';
    return createRow(scope, {
      param_name: r.param_name ?? '',
      param_key: r.param_key ?? '',
      description: r.description ?? '',
      data_type: r.data_type ?? '',
      optional_values: r.optional_values ?? '',
      default_value: r.default_value ?? '',
      is_not_null: r.is_not_null ?? false,
      is_array: r.is_array ?? false,
      request_type: scope.kind === 'params' ? (r.request_type === 'query_path' ? 'query_path' : 'query_params') : scope.kind === 'body' ? 'body' : undefined,
      request_subtype: scope.kind === 'body' ? subtypeOf(scope) : undefined,
      param_value: r.param_value ?? '',
      ...(isObject ? { children: fromSaved(scope, r.children), expanded: true } : {}),
    });
  });
}

/** The subtype saved body rows were made in (their request_subtype), else `fallback` (form-data). */
export function subtypeOfSaved(saved: readonly Partial<ParamRow>[] | null | undefined, fallback: BodySubtype = DEFAULT_BODY_SUBTYPE): BodySubtype {
  return saved?.[0]?.request_subtype ?? fallback;
}

// ---- validation (spec 5) ---------------------------------------------------------------------------

/** The fields validation speaks about. */
export type IssueField = 'param_key' | 'data_type' | 'param_value';

/** A message as an i18n key (namespace `param`) with its parameters, translated when shown. */
export interface ParamMessage {
  key: `errors.${ParamMessageName}`;
  /** keyPattern: the key; typeNotAllowed: the type. */
  params?: { key?: string; type?: string };
}

export interface ParamIssue {
  rowId: string;
  /** Indexes from the top level down to the row. */
  path: number[];
  field: IssueField;
  message: ParamMessage;
}

/**
 * Spec 5, through the shared zod schema (`paramTableSchema`): the issues of a table, each tied to a
 * row id and a field. An empty table is valid. Call on each edit (rows are revalidated on each edit);
 * translate `message` when rendering so it follows language changes.
 */
export function validateRows(scope: ParamScope, rows: LocalRow[]): ParamIssue[] {
  const result = paramTableSchema(scope).safeParse(toSaved(scope, rows));
  if (result.success) return [];
  const issues: ParamIssue[] = [];
  for (const issue of result.error.issues) {
    const indexes = issue.path.filter((p): p is number => typeof p === 'number');
    const field = issue.path[issue.path.length - 1];
    if (field !== 'param_key' && field !== 'data_type' && field !== 'param_value') continue;
    let list: LocalRow[] | undefined = rows;
    let row: LocalRow | undefined;
    for (const i of indexes) {
      row = list?.[i];
      list = row?.children;
    }
    const name = paramMessageName(issue.message);
    if (!row || !name) continue;
    const params: ParamMessage['params'] =
      name === 'keyPattern' ? { key: row.param_key } : name === 'typeNotAllowed' ? { type: row.data_type } : undefined;
    issues.push({ rowId: row.id, path: indexes, field, message: params ? { key: `errors.${name}`, params } : { key: `errors.${name}` } });
  }
  return issues;
}

/** Issues by row id and field, for the cells. */
export function issuesByCell(issues: ParamIssue[]): Map<string, Partial<Record<IssueField, ParamMessage>>> {
  const map = new Map<string, Partial<Record<IssueField, ParamMessage>>>();
  for (const issue of issues) {
    const cell = map.get(issue.rowId) ?? {};
    cell[issue.field] ??= issue.message;
    map.set(issue.rowId, cell);
  }
  return map;
}

// ---- columns ---------------------------------------------------------------------------------------

export type ColumnId =
  | 'param_name'
  | 'param_key'
  | 'request_type'
  | 'data_type'
  | 'is_array'
  | 'is_not_null'
  | 'default_value'
  | 'description'
  | 'optional_values'
  | 'param_value';

/**
 * The columns of each table. Request parameters: name, key, location (query or path), type, required,
 * default, description, optional values; body: the same without location, plus is_array in json;
 * response: key, type, is_array, description; headers: type (param_key), value, data type.
 */
export function columnsFor(scope: ParamScope): ColumnId[] {
  switch (scope.kind) {
    case 'params':
      return ['param_name', 'param_key', 'request_type', 'data_type', 'is_not_null', 'default_value', 'description', 'optional_values'];
    case 'body':
      return isJsonBody(scope)
        ? ['param_name', 'param_key', 'data_type', 'is_array', 'is_not_null', 'default_value', 'description', 'optional_values']
        : ['param_name', 'param_key', 'data_type', 'is_not_null', 'default_value', 'description', 'optional_values'];
    case 'response':
      return ['param_key', 'data_type', 'is_array', 'description'];
    case 'headers':
      return ['param_key', 'param_value', 'data_type'];
  }
}
