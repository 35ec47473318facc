import { describe, expect, it } from 'vitest';
import {
  allowedDataTypes,
  DATA_TYPES,
  DATA_TYPES_BY_LOCATION,
  PARAM_MESSAGES,
  paramMessageName,
  ParamRow,
  paramTableSchema,
} from './parameter';

const messages = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  (r.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]);

describe('schemas/parameter', () => {
  it('the saved row holds every field of spec 3, children recursively', () => {
    const row = {
      param_name: 'User',
      param_key: 'user',
      description: 'd',
      data_type: 'object',
      optional_values: '',
      default_value: '',
      is_not_null: true,
      is_array: false,
      request_type: 'body',
      request_subtype: 'json',
      param_value: '',
      children: [{ param_key: 'tags', data_type: 'string', is_array: true, children: [] }],
    };
    expect(ParamRow.parse(row)).toEqual(row);
    expect(ParamRow.safeParse({ ...row, request_type: 'header' }).success).toBe(false);
    expect(ParamRow.safeParse({ ...row, request_subtype: 'xml' }).success).toBe(false);
  });

  it('the general field-type list and the per-location tables', () => {
    expect(DATA_TYPES).toEqual(['integer', 'long', 'string', 'boolean', 'decimal', 'datetime', 'timestamp', 'object']);
    expect(DATA_TYPES_BY_LOCATION.query_params).toEqual(['string', 'integer', 'long', 'decimal']);
    expect(DATA_TYPES_BY_LOCATION.query_path).toEqual(DATA_TYPES_BY_LOCATION.query_params);
    expect(DATA_TYPES_BY_LOCATION.header).toEqual(DATA_TYPES_BY_LOCATION.query_params);
    expect(DATA_TYPES_BY_LOCATION['form-data']).toEqual(['string', 'integer', 'long', 'decimal', 'timestamp', 'datetime']);
    expect(DATA_TYPES_BY_LOCATION['x-www-form-urlencoded']).toEqual(DATA_TYPES_BY_LOCATION['form-data']);
    expect([...DATA_TYPES_BY_LOCATION.json].sort()).toEqual([...DATA_TYPES].sort());
    expect(DATA_TYPES_BY_LOCATION.response).toEqual(DATA_TYPES_BY_LOCATION.json);
    expect(allowedDataTypes({ kind: 'body' })).toEqual(DATA_TYPES_BY_LOCATION['form-data']);
  });

  it('validation messages are the spec texts, and each maps back to its name', () => {
    const r = paramTableSchema({ kind: 'body', subtype: 'json' }).safeParse([
      { param_key: 'data', data_type: 'object', children: [{ param_key: 'a-b', data_type: '' }, { param_key: '', data_type: 'string' }] },
    ]);
    expect(messages(r)).toEqual([
      ['0.children.0.param_key', PARAM_MESSAGES.keyPattern],
      ['0.children.0.data_type', 'field type cannot be empty'],
      ['0.children.1.param_key', PARAM_MESSAGES.keyRequired],
    ]);
    for (const [name, text] of Object.entries(PARAM_MESSAGES)) expect(paramMessageName(text)).toBe(name);
  });

  it('header rows: type (param_key), value and data type required; any header name', () => {
    const schema = paramTableSchema({ kind: 'headers' });
    expect(messages(schema.safeParse([{ param_key: '', param_value: '', data_type: '' }]))).toEqual([
      ['0.param_key', PARAM_MESSAGES.headerTypeRequired],
      ['0.param_value', PARAM_MESSAGES.valueRequired],
      ['0.data_type', PARAM_MESSAGES.typeRequired],
    ]);
    expect(schema.safeParse([{ param_key: 'X-Api-Key', param_value: 'k', data_type: 'string' }]).success).toBe(true);
  });

  it('request parameters are in the query or the path; an empty table is valid', () => {
    const schema = paramTableSchema({ kind: 'params' });
    expect(schema.safeParse([]).success).toBe(true);
    expect(schema.safeParse([{ param_key: 'id', data_type: 'long', request_type: 'query_path' }]).success).toBe(true);
    expect(schema.safeParse([{ param_key: 'id', data_type: 'long', request_type: 'body' }]).success).toBe(false);
    expect(messages(schema.safeParse([{ param_key: 'on', data_type: 'boolean' }]))).toEqual([['0.data_type', PARAM_MESSAGES.typeNotAllowed]]);
  });
});
