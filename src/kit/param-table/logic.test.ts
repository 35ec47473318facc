import { beforeAll, describe, expect, it } from 'vitest';
import type { ParamRow, ParamScope } from '../../../schemas/parameter';
import { i18n, initI18n, tDynamic } from '../../i18n';
import {
  addRow,
  allowedDataTypes,
  canDelete,
  changeType,
  columnsFor,
  createBodyDraft,
  createRow,
  deleteRow,
  fromSaved,
  initBody,
  isLocked,
  showAddButton,
  stripIds,
  switchSubtype,
  toSaved,
  updateRow,
  validateRows,
  visibleRows,
  type LocalRow,
} from './logic';

const json: ParamScope = { kind: 'body', subtype: 'json' };
const formData: ParamScope = { kind: 'body', subtype: 'form-data' };
const urlencoded: ParamScope = { kind: 'body', subtype: 'x-www-form-urlencoded' };
const params: ParamScope = { kind: 'params' };
const headers: ParamScope = { kind: 'headers' };
const response: ParamScope = { kind: 'response' };

/** Every `id` key anywhere in a value. */
function idsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(idsIn);
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => (k === 'id' ? [String(v)] : idsIn(v)));
  }
  return [];
}

const keys = (rows: LocalRow[]) => rows.map((r) => r.param_key);

describe('spec 4: parameter table behaviour', () => {
  it('choosing object adds one child row and expands it', () => {
    const row = createRow(json, { param_key: 'user' });
    const rows = changeType(json, [createRow(json, { param_key: 'x' }), row], row.id, 'object');
    const changed = rows[1];
    expect(changed.data_type).toBe('object');
    expect(changed.children).toHaveLength(1);
    expect(changed.children![0]).toMatchObject({ param_key: '', data_type: 'string' });
    expect(changed.expanded).toBe(true);
    expect(visibleRows(rows).map((v) => [v.row.id, v.depth])).toEqual([
      [rows[0].id, 0],
      [row.id, 0],
      [changed.children![0].id, 1],
    ]);
  });

  it('changing to another type removes the children', () => {
    const row = createRow(response, { param_key: 'user' });
    let rows = changeType(response, [row], row.id, 'object');
    rows = addRow(response, rows, row.id).rows;
    expect(rows[0].children).toHaveLength(2);
    rows = changeType(response, rows, row.id, 'string');
    expect(rows[0].data_type).toBe('string');
    expect(rows[0].children).toBeUndefined();
    expect(toSaved(response, rows)[0].children).toBeUndefined();
  });

  it('a new first body row is an object with key data and one child', () => {
    const { rows } = addRow(json, []);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ param_key: 'data', data_type: 'object', expanded: true });
    expect(rows[0].children).toHaveLength(1);
    expect(initBody(json)[0]).toMatchObject({ param_key: 'data', data_type: 'object' });
  });

  it("that row's key and its first child's type are locked", () => {
    let rows = addRow(json, []).rows;
    const root = rows[0];
    const child = root.children![0];
    expect(isLocked(json, rows, root.id, 'param_key')).toBe(true);
    expect(isLocked(json, rows, child.id, 'data_type')).toBe(true);
    expect(isLocked(json, rows, child.id, 'param_key')).toBe(false);

    rows = updateRow(json, rows, root.id, { param_key: 'payload' });
    rows = updateRow(json, rows, child.id, { data_type: 'object' });
    expect(rows[0].param_key).toBe('data');
    expect(rows[0].children![0].data_type).toBe('string');

    // A second child is free.
    rows = addRow(json, rows, root.id).rows;
    const second = rows[0].children![1];
    expect(isLocked(json, rows, second.id, 'data_type')).toBe(false);
    rows = updateRow(json, rows, second.id, { data_type: 'object' });
    expect(rows[0].children![1].data_type).toBe('object');

    // Only the json body's data root: other tables and other first rows are free.
    const imported = fromSaved(json, [{ param_key: 'user', data_type: 'object', children: [{ param_key: 'a', data_type: 'string' }] }]);
    expect(isLocked(json, imported, imported[0].id, 'param_key')).toBe(false);
    expect(isLocked(json, imported, imported[0].children![0].id, 'data_type')).toBe(false);
    const resp = fromSaved(response, [{ param_key: 'data', data_type: 'object', children: [{ param_key: 'a', data_type: 'string' }] }]);
    expect(isLocked(response, resp, resp[0].id, 'param_key')).toBe(false);
  });

  it('switching the body subtype saves the rows of the old subtype and loads those of the new one', () => {
    const formRows = [createRow(formData, { param_key: 'file' }), createRow(formData, { param_key: 'name' })];
    let draft = createBodyDraft('form-data', formRows);
    draft = switchSubtype(draft, 'json');
    expect(draft.subtype).toBe('json');
    expect(draft.rows).toEqual([]);
    draft = { ...draft, rows: addRow(json, draft.rows).rows };
    const jsonRows = draft.rows;

    draft = switchSubtype(draft, 'x-www-form-urlencoded');
    expect(draft.rows).toEqual([]);
    draft = switchSubtype(draft, 'form-data');
    expect(draft.rows).toBe(formRows);
    draft = switchSubtype(draft, 'json');
    expect(draft.rows).toBe(jsonRows);
  });

  it('the first body row cannot be deleted', () => {
    const rows = addRow(json, []).rows;
    expect(canDelete(json, rows, rows[0].id)).toBe(false);
    expect(deleteRow(json, rows, rows[0].id)).toBe(rows);
  });

  it('an only child cannot be deleted', () => {
    let rows = addRow(json, []).rows;
    const only = rows[0].children![0];
    expect(canDelete(json, rows, only.id)).toBe(false);
    expect(deleteRow(json, rows, only.id)).toBe(rows);

    rows = addRow(json, rows, rows[0].id).rows;
    expect(canDelete(json, rows, only.id)).toBe(true);
    rows = deleteRow(json, rows, only.id);
    expect(rows[0].children).toHaveLength(1);
    expect(canDelete(json, rows, rows[0].children![0].id)).toBe(false);

    // The same holds in the response; top-level response rows are free.
    const user = createRow(response, { param_key: 'user' });
    const resp = changeType(response, [user, createRow(response)], user.id, 'object');
    expect(canDelete(response, resp, resp[0].children![0].id)).toBe(false);
    expect(canDelete(response, resp, resp[0].id)).toBe(true);
  });

  it('a row added to an object row goes under it', () => {
    let rows = addRow(json, []).rows;
    const root = rows[0];
    const first = root.children![0];
    rows = toggleCollapsed(rows);
    const added = addRow(json, rows, root.id);
    rows = added.rows;
    expect(rows).toHaveLength(1);
    expect(rows[0].children!.map((c) => c.id)).toEqual([first.id, added.id]);
    expect(rows[0].expanded).toBe(true);
  });

  it('otherwise it is inserted after the current row', () => {
    const a = createRow(params, { param_key: 'a' });
    const b = createRow(params, { param_key: 'b' });
    const added = addRow(params, [a, b], a.id);
    expect(added.rows.map((r) => r.id)).toEqual([a.id, added.id, b.id]);

    // Inside an object, after the current child.
    let rows = addRow(json, []).rows;
    const first = rows[0].children![0];
    rows = addRow(json, rows, rows[0].id).rows;
    const inserted = addRow(json, rows, first.id);
    expect(inserted.rows[0].children!.map((c) => c.id)).toEqual([first.id, inserted.id, rows[0].children![1].id]);

    // Without a current row it goes at the end.
    const appended = addRow(formData, [a, b]);
    expect(appended.rows.map((r) => r.id)).toEqual([a.id, b.id, appended.id]);
  });

  it('with rows present, the add-parameter button shows only when the subtype is not json', () => {
    expect(showAddButton(json, [])).toBe(true);
    expect(showAddButton(json, initBody(json))).toBe(false);
    const one = [createRow(formData)];
    expect(showAddButton(formData, [])).toBe(true);
    expect(showAddButton(formData, one)).toBe(true);
    expect(showAddButton(urlencoded, one)).toBe(true);
    expect(showAddButton(params, one)).toBe(true);
    expect(showAddButton(headers, one)).toBe(true);
    expect(showAddButton(response, one)).toBe(true);
  });
});

function toggleCollapsed(rows: LocalRow[]): LocalRow[] {
  return rows.map((r) => ({ ...r, expanded: false }));
}

describe('spec 3: parameter row', () => {
  it('row ids are generated locally and removed before rows are returned', () => {
    const saved: ParamRow[] = [
      { param_key: 'data', data_type: 'object', children: [{ param_key: 'a', data_type: 'string' }, { param_key: 'b', data_type: 'integer' }] },
    ];
    const rows = fromSaved(json, saved);
    const ids = [rows[0].id, ...rows[0].children!.map((c) => c.id)];
    expect(new Set(ids).size).toBe(3);
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    expect(idsIn(stripIds(rows))).toEqual([]);
    expect(idsIn(toSaved(json, rows))).toEqual([]);
    expect(JSON.stringify(toSaved(json, rows))).not.toMatch(/"expanded"/);
  });

  it('returned body rows carry request_type body and the chosen request_subtype, default form-data', () => {
    let rows = addRow(json, []).rows;
    rows = updateRow(json, rows, rows[0].children![0].id, { param_key: 'name' });
    const saved = toSaved(json, rows);
    expect(saved[0]).toMatchObject({ request_type: 'body', request_subtype: 'json' });
    expect(saved[0].children![0]).toMatchObject({ request_type: 'body', request_subtype: 'json' });

    const plain = toSaved({ kind: 'body' }, [createRow({ kind: 'body' }, { param_key: 'f' })]);
    expect(plain[0]).toMatchObject({ request_type: 'body', request_subtype: 'form-data' });
    expect(toSaved(urlencoded, [createRow(urlencoded)])[0].request_subtype).toBe('x-www-form-urlencoded');
  });

  it('every field of a parameter row is kept from load to save', () => {
    const saved: ParamRow[] = [
      {
        param_name: 'User',
        param_key: 'user',
        description: 'the user',
        data_type: 'object',
        optional_values: '',
        default_value: '',
        is_not_null: true,
        is_array: true,
        request_type: 'body',
        request_subtype: 'json',
        param_value: '',
        children: [
          {
            param_name: 'Role',
            param_key: 'role',
            description: 'a role',
            data_type: 'string',
            optional_values: 'admin,member',
            default_value: 'member',
            is_not_null: false,
            is_array: false,
            request_type: 'body',
            request_subtype: 'json',
            param_value: '',
          },
        ],
      },
    ];
    expect(toSaved(json, fromSaved(json, saved))).toEqual(saved);
  });

  it('request parameters carry request_type query_params or query_path; headers and response rows none', () => {
    const rows = [createRow(params, { param_key: 'q' }), createRow(params, { param_key: 'id', request_type: 'query_path' })];
    expect(toSaved(params, rows).map((r) => r.request_type)).toEqual(['query_params', 'query_path']);
    expect(toSaved(headers, [createRow(headers)])[0].request_type).toBeUndefined();
    expect(toSaved(response, [createRow(response)])[0].request_type).toBeUndefined();
  });

  it('is_array is kept for json body and response rows only', () => {
    const flag = { is_array: true };
    expect(toSaved(json, [createRow(json, flag)])[0].is_array).toBe(true);
    expect(toSaved(response, [createRow(response, flag)])[0].is_array).toBe(true);
    expect(toSaved(formData, [createRow(formData, flag)])[0].is_array).toBe(false);
    expect(toSaved(params, [createRow(params, flag)])[0].is_array).toBe(false);
  });

  it('data types: string, integer, long, decimal are allowed in every location', () => {
    for (const scope of [params, headers, formData, urlencoded, json, response]) {
      expect(allowedDataTypes(scope)).toEqual(expect.arrayContaining(['string', 'integer', 'long', 'decimal']));
    }
  });

  it('data types: timestamp and datetime are allowed in the body and the response only', () => {
    for (const scope of [formData, urlencoded, json, response]) {
      expect(allowedDataTypes(scope)).toEqual(expect.arrayContaining(['timestamp', 'datetime']));
    }
    for (const scope of [params, headers]) {
      expect(allowedDataTypes(scope)).not.toContain('timestamp');
      expect(allowedDataTypes(scope)).not.toContain('datetime');
    }
  });

  it('data types: boolean and object are allowed in a json body and the response only', () => {
    for (const scope of [json, response]) {
      expect(allowedDataTypes(scope)).toEqual(expect.arrayContaining(['boolean', 'object']));
    }
    for (const scope of [params, headers, formData, urlencoded]) {
      expect(allowedDataTypes(scope)).not.toContain('boolean');
      expect(allowedDataTypes(scope)).not.toContain('object');
    }
  });

  it('columns per location: request params, body (+ is_array in json), response, headers', () => {
    expect(columnsFor(params)).toEqual(['param_name', 'param_key', 'request_type', 'data_type', 'is_not_null', 'default_value', 'description', 'optional_values']);
    expect(columnsFor(formData)).not.toContain('is_array');
    expect(columnsFor(json)).toContain('is_array');
    expect(columnsFor(response)).toEqual(['param_key', 'data_type', 'is_array', 'description']);
    expect(columnsFor(headers)).toEqual(['param_key', 'param_value', 'data_type']);
  });
});

describe('spec 5: parameter table validation', () => {
  beforeAll(async () => {
    await initI18n('zh');
  });

  const messagesOf = (scope: ParamScope, rows: LocalRow[]) => validateRows(scope, rows).map((i) => [i.field, i.message.key]);

  it('data_type is required (field type cannot be empty)', () => {
    const rows = fromSaved(params, [{ param_key: 'q' }]);
    expect(rows[0].data_type).toBe('');
    expect(messagesOf(params, rows)).toEqual([['data_type', 'errors.typeRequired']]);
  });

  it('a data type the location does not allow is rejected', () => {
    const rows = fromSaved(formData, [{ param_key: 'when', data_type: 'boolean' }]);
    const issues = validateRows(formData, rows);
    expect(issues).toEqual([{ rowId: rows[0].id, path: [0], field: 'data_type', message: { key: 'errors.typeNotAllowed', params: { type: 'boolean' } } }]);
  });

  it('param_key is required for request parameters, body and response', () => {
    for (const scope of [params, formData, urlencoded, json, response]) {
      const rows = [createRow(scope)];
      expect(messagesOf(scope, rows), scope.kind + (scope.subtype ?? '')).toEqual([['param_key', 'errors.keyRequired']]);
    }
  });

  it('param_key allows English letters, digits and underscore only', () => {
    for (const ok of ['user_id', 'A1', '_x', '123']) {
      expect(validateRows(params, [createRow(params, { param_key: ok })]), ok).toEqual([]);
    }
    for (const bad of ['user-id', 'a b', 'näme', '用户', 'a.b']) {
      const rows = [createRow(params, { param_key: bad })];
      expect(validateRows(params, rows), bad).toEqual([
        { rowId: rows[0].id, path: [0], field: 'param_key', message: { key: 'errors.keyPattern', params: { key: bad } } },
      ]);
    }
  });

  it('for headers, param_key (labelled type), param_value and data_type are required', () => {
    const rows = fromSaved(headers, [{}]);
    expect(messagesOf(headers, rows)).toEqual([
      ['param_key', 'errors.headerTypeRequired'],
      ['param_value', 'errors.valueRequired'],
      ['data_type', 'errors.typeRequired'],
    ]);
    // Header names are not field keys: Content-Type is fine.
    expect(validateRows(headers, [createRow(headers, { param_key: 'Content-Type', param_value: 'application/json' })])).toEqual([]);
  });

  it('an empty table is valid', () => {
    for (const scope of [params, headers, formData, urlencoded, json, response]) {
      expect(validateRows(scope, [])).toEqual([]);
    }
  });

  it('children of object rows are validated, each issue tied to its row', () => {
    let rows = addRow(json, []).rows;
    rows = updateRow(json, rows, rows[0].children![0].id, { param_key: 'ok' });
    const added = addRow(json, rows, rows[0].id);
    rows = updateRow(json, added.rows, added.id, { param_key: 'bad-key', data_type: 'object' });
    const issues = validateRows(json, rows);
    expect(issues.map((i) => [i.rowId, i.path, i.field, i.message.key])).toEqual([
      [added.id, [0, 1], 'param_key', 'errors.keyPattern'],
      [rows[0].children![1].children![0].id, [0, 1, 0], 'param_key', 'errors.keyRequired'],
    ]);
  });

  it('rows are revalidated on each edit', () => {
    let rows = [createRow(params)];
    expect(validateRows(params, rows)).toHaveLength(1);
    rows = updateRow(params, rows, rows[0].id, { param_key: 'q' });
    expect(validateRows(params, rows)).toEqual([]);
    rows = updateRow(params, rows, rows[0].id, { param_key: 'q-1' });
    expect(validateRows(params, rows)[0].message.key).toBe('errors.keyPattern');
  });

  it('messages are i18n keys with params, re-translated on language change', async () => {
    const rows = [createRow(params, { param_key: 'a-b' })];
    const [issue] = validateRows(params, rows);
    const text = () => tDynamic(`param:${issue.message.key}`, issue.message.params);
    await i18n.changeLanguage('zh');
    expect(text()).toBe('字段键“a-b”只能包含英文字母、数字和下划线');
    await i18n.changeLanguage('en');
    expect(text()).toBe('Field key "a-b" may contain only English letters, digits and underscore');
    await i18n.changeLanguage('zh');
    for (const key of ['typeRequired', 'typeNotAllowed', 'keyRequired', 'keyPattern', 'headerTypeRequired', 'valueRequired']) {
      expect(i18n.exists(`param:errors.${key}`, { lng: 'zh' }), key).toBe(true);
      expect(i18n.exists(`param:errors.${key}`, { lng: 'en' }), key).toBe(true);
    }
  });
});
