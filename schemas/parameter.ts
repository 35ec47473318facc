import { z } from 'zod';

/**
 * API parameter rows of tool functions (spec 3 "Parameter row", 4 "Parameter table behaviour", 5, 9).
 *
 * One table kind per place a function declares parameters:
 * - `params`: request parameters; each row is in the query (`query_params`) or the path (`query_path`);
 * - `headers`: request headers; `param_key` is the header name (labelled "type"), `param_value` its value;
 * - `body`: the request body, in one subtype (form-data, x-www-form-urlencoded, json, query_string or
 *   path: spec 9's body types; the last two send the body's fields in the URL, see BODY_IN_URL);
 * - `response`: the response body (JSON).
 *
 * `ParamRow` is the saved form (no row ids: those live only in the editor, see src/kit/param-table).
 * `paramTableSchema(kind, subtype)` is the validation of spec 5, the same on the client and the server.
 */

/** The general field-type list (spec 3), in the spec's order. */
export const DATA_TYPES = ['integer', 'long', 'string', 'boolean', 'decimal', 'datetime', 'timestamp', 'object'] as const;
export const DataType = z.enum(DATA_TYPES);
export type DataType = z.infer<typeof DataType>;

/** Where a request parameter goes (spec 3: request_type). Header rows carry none. */
export const RequestType = z.enum(['query_params', 'query_path', 'body']);
export type RequestType = z.infer<typeof RequestType>;

/** The request body's subtype (spec 3: request_subtype; spec 9: the body types). */
export const BODY_SUBTYPES = ['form-data', 'x-www-form-urlencoded', 'json', 'query_string', 'path'] as const;
export const BodySubtype = z.enum(BODY_SUBTYPES);
export type BodySubtype = z.infer<typeof BodySubtype>;
/**
 * Body types whose fields travel in the URL, whatever the method (GET included): `query_string`
 * appends them to the query, `path` puts each into the URL's `{key}` placeholder. No request body.
 */
export const BODY_IN_URL: readonly BodySubtype[] = ['query_string', 'path'];
/** Spec 3: returned body rows carry the chosen subtype, default form-data. */
export const DEFAULT_BODY_SUBTYPE: BodySubtype = 'form-data';

/** Parameter locations of spec 9. */
export const PARAM_LOCATIONS = ['body', 'query_params', 'query_path', 'header'] as const;
export type ParamLocation = (typeof PARAM_LOCATIONS)[number];

/** The four parameter tables of a tool function. */
export const PARAM_TABLE_KINDS = ['params', 'headers', 'body', 'response'] as const;
export const ParamTableKind = z.enum(PARAM_TABLE_KINDS);
export type ParamTableKind = z.infer<typeof ParamTableKind>;

/** Which table (and, for the body, which subtype) a row belongs to. */
export interface ParamScope {
  kind: ParamTableKind;
  /** Only for `body`; default form-data. */
  subtype?: BodySubtype;
}

/**
 * Data types allowed per location (spec 3): string, integer, long, decimal everywhere; timestamp and
 * datetime in the body and the response; boolean and object in a json body and the response only.
 */
const BASE_TYPES = ['string', 'integer', 'long', 'decimal'] as const satisfies readonly DataType[];
const TIME_TYPES = ['timestamp', 'datetime'] as const satisfies readonly DataType[];
const JSON_TYPES = ['boolean', 'object'] as const satisfies readonly DataType[];

export const DATA_TYPES_BY_LOCATION = {
  query_params: [...BASE_TYPES],
  query_path: [...BASE_TYPES],
  header: [...BASE_TYPES],
  'form-data': [...BASE_TYPES, ...TIME_TYPES],
  'x-www-form-urlencoded': [...BASE_TYPES, ...TIME_TYPES],
  json: [...BASE_TYPES, ...TIME_TYPES, ...JSON_TYPES],
  // In the URL, like request parameters: flat text values.
  query_string: [...BASE_TYPES],
  path: [...BASE_TYPES],
  response: [...BASE_TYPES, ...TIME_TYPES, ...JSON_TYPES],
} as const satisfies Record<Exclude<ParamLocation, 'body'> | BodySubtype | 'response', readonly DataType[]>;

/** The data types a table offers (query and path rows share one list). */
export function allowedDataTypes(scope: ParamScope): readonly DataType[] {
  switch (scope.kind) {
    case 'params':
      return DATA_TYPES_BY_LOCATION.query_params;
    case 'headers':
      return DATA_TYPES_BY_LOCATION.header;
    case 'response':
      return DATA_TYPES_BY_LOCATION.response;
    case 'body':
      return DATA_TYPES_BY_LOCATION[scope.subtype ?? DEFAULT_BODY_SUBTYPE];
  }
}

/** Tables whose rows nest (object rows with children) and carry is_array: a json body and the response. */
export function isTreeScope(scope: ParamScope): boolean {
  return scope.kind === 'response' || (scope.kind === 'body' && (scope.subtype ?? DEFAULT_BODY_SUBTYPE) === 'json');
}

/** The saved form of a parameter row (spec 3). */
export interface ParamRow {
  param_name?: string;
  param_key: string;
  description?: string;
  data_type: DataType;
  /** Allowed values, comma-separated. */
  optional_values?: string;
  default_value?: string;
  is_not_null?: boolean;
  /** json body and response rows. */
  is_array?: boolean;
  /** query_params or query_path for request parameters, body for body rows; none for headers and response. */
  request_type?: RequestType;
  request_subtype?: BodySubtype;
  /** Header value (the header name is param_key). */
  param_value?: string;
  /** Nested rows of an object row. */
  children?: ParamRow[];
}

export const ParamRow: z.ZodType<ParamRow> = z.object({
  param_name: z.string().optional(),
  param_key: z.string(),
  description: z.string().optional(),
  data_type: DataType,
  optional_values: z.string().optional(),
  default_value: z.string().optional(),
  is_not_null: z.boolean().optional(),
  is_array: z.boolean().optional(),
  request_type: RequestType.optional(),
  request_subtype: BodySubtype.optional(),
  param_value: z.string().optional(),
  get children() {
    return z.array(ParamRow).optional();
  },
});

/** Field keys: English letters, digits and underscore only (spec 5). */
export const PARAM_KEY_PATTERN = /^[A-Za-z0-9_]+$/;

/**
 * Messages of the parameter-table rules (spec 5). The client shows them through i18n keys of the same
 * names (namespace `param`, `errors.<name>`), see `paramMessageName`.
 */
export const PARAM_MESSAGES = {
  typeRequired: 'field type cannot be empty',
  typeNotAllowed: 'field type is not allowed here',
  keyRequired: 'field key cannot be empty',
  keyPattern: 'field key may contain only English letters, digits and underscore',
  headerTypeRequired: 'type cannot be empty',
  valueRequired: 'value cannot be empty',
  pathPlaceholder: 'the URL path has no {key} placeholder for this field',
} as const;
export type ParamMessageName = keyof typeof PARAM_MESSAGES;

const messageNames = new Map(Object.entries(PARAM_MESSAGES).map(([name, text]) => [text as string, name as ParamMessageName]));

/** The name of a parameter-table message (for its i18n key), from a zod issue's message. */
export function paramMessageName(message: string): ParamMessageName | undefined {
  return messageNames.get(message);
}

const dataTypeRule = (allowed: readonly DataType[]) =>
  z
    .string({ error: PARAM_MESSAGES.typeRequired })
    .min(1, { error: PARAM_MESSAGES.typeRequired, abort: true })
    .pipe(z.enum(allowed as [DataType, ...DataType[]], { error: PARAM_MESSAGES.typeNotAllowed }));

const fieldKeyRule = z
  .string({ error: PARAM_MESSAGES.keyRequired })
  .min(1, { error: PARAM_MESSAGES.keyRequired, abort: true })
  .regex(PARAM_KEY_PATTERN, { error: PARAM_MESSAGES.keyPattern });

const optText = z.string().optional();

function rowSchema(scope: ParamScope): z.ZodType<ParamRow, unknown> {
  const allowed = allowedDataTypes(scope);
  if (scope.kind === 'headers') {
    // Header names may hold '-' (Content-Type): only "not empty" applies to them.
    return z.object({
      param_key: z.string({ error: PARAM_MESSAGES.headerTypeRequired }).min(1, PARAM_MESSAGES.headerTypeRequired),
      param_value: z.string({ error: PARAM_MESSAGES.valueRequired }).min(1, PARAM_MESSAGES.valueRequired),
      data_type: dataTypeRule(allowed),
      param_name: optText,
      description: optText,
      optional_values: optText,
      default_value: optText,
      is_not_null: z.boolean().optional(),
      is_array: z.boolean().optional(),
      request_type: RequestType.optional(),
      request_subtype: BodySubtype.optional(),
    });
  }
  const row: z.ZodType<ParamRow, unknown> = z.object({
    param_key: fieldKeyRule,
    data_type: dataTypeRule(allowed),
    param_name: optText,
    description: optText,
    optional_values: optText,
    default_value: optText,
    is_not_null: z.boolean().optional(),
    is_array: z.boolean().optional(),
    request_type: (scope.kind === 'params'
      ? z.enum(['query_params', 'query_path'])
      : scope.kind === 'body'
        ? z.literal('body')
        : RequestType
    ).optional(),
    request_subtype: BodySubtype.optional(),
    param_value: optText,
    get children(): z.ZodOptional<z.ZodArray<z.ZodType<ParamRow, unknown>>> {
      return z.array(row).optional();
    },
  });
  return row;
}

/**
 * The validation of one parameter table (spec 5): data_type required ('field type cannot be empty') and
 * allowed in its location; param_key required for request parameters, body and response, letters,
 * digits and underscore only; for headers param_key (labelled type), param_value and data_type
 * required. An empty table is valid. Children of object rows are validated the same way.
 * @example paramTableSchema({ kind: 'body', subtype: 'json' }).safeParse(rows)
 */
export function paramTableSchema(scope: ParamScope) {
  return z.array(rowSchema(scope));
}
