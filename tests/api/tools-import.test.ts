import { beforeAll, describe, expect, it } from 'vitest';
import { useStudio, type CallOptions } from './harness';
import { expectCode, expectOk, type Fixture, setUpWorkspaces, type Who } from './workspace-fixture';

const h = useStudio();
const URL = '/api/v1/console/tools';
let f: Fixture;

function call(method: string, url: string, who: Who, opts: Omit<CallOptions, 'token'> = {}) {
  return h.call(method, url, { ...opts, token: f.u[who].token, workspaceId: f.wsA });
}

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'toolimp');
});

/** A realistic OpenAPI 3.0 document in YAML: path-level and operation parameters, $refs, json and form bodies. */
const PETSTORE_V3 = `
openapi: 3.0.3
info:
  title: Pet Store
  description: Pets for sale
  version: 1.0.0
servers:
  - url: https://{region}.pets.example.com/v1
    variables:
      region:
        default: eu
paths:
  /pets:
    get:
      operationId: listPets
      summary: List pets
      parameters:
        - $ref: '#/components/parameters/Limit'
        - name: status
          in: query
          schema: { type: string, enum: [available, sold] }
        - name: X-Request-Id
          in: header
          schema: { type: string }
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: array
                items: { $ref: '#/components/schemas/Pet' }
    post:
      operationId: createPet
      summary: Create a pet
      requestBody:
        content:
          application/json:
            schema: { $ref: '#/components/schemas/NewPet' }
      responses:
        '201':
          description: created
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Pet' }
  /pets/{petId}:
    parameters:
      - name: petId
        in: path
        required: true
        schema: { type: integer, format: int64 }
    get:
      operationId: get-pet.by-id
      responses:
        '200': { description: ok }
    delete:
      summary: Remove a pet
      responses:
        '204': { description: gone }
  /pets/{petId}/photo:
    post:
      operationId: uploadPhoto
      parameters:
        - name: petId
          in: path
          required: true
          schema: { type: integer }
      requestBody:
        content:
          application/x-www-form-urlencoded:
            schema:
              type: object
              required: [caption]
              properties:
                caption: { type: string, description: Photo caption }
                taken: { type: string, format: date-time }
components:
  parameters:
    Limit:
      name: limit
      in: query
      description: Page size
      schema: { type: integer, default: 20 }
  schemas:
    NewPet:
      type: object
      required: [name]
      properties:
        name: { type: string }
        tags: { type: array, items: { type: string } }
        owner:
          type: object
          properties:
            email: { type: string }
            vip: { type: boolean }
    Pet:
      allOf: []
      type: object
      properties:
        id: { type: integer, format: int64 }
        name: { type: string }
        born: { type: string, format: date-time }
`;

/** A Swagger 2.0 document in JSON: host and basePath, body and formData parameters. */
const SWAGGER_V2 = JSON.stringify({
  swagger: '2.0',
  info: { title: 'Legacy Orders', version: '2' },
  host: 'orders.example.com',
  basePath: '/api',
  schemes: ['https'],
  consumes: ['application/json'],
  paths: {
    '/orders': {
      post: {
        operationId: 'createOrder',
        summary: 'Create an order',
        parameters: [
          { name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/Order' } },
          { name: 'dryRun', in: 'query', type: 'boolean' },
        ],
        responses: { '200': { description: 'ok', schema: { $ref: '#/definitions/Order' } } },
      },
    },
    '/orders/{id}/notes': {
      post: {
        operationId: 'addNote',
        consumes: ['application/x-www-form-urlencoded'],
        parameters: [
          { name: 'id', in: 'path', required: true, type: 'string' },
          { name: 'text', in: 'formData', required: true, type: 'string' },
          { name: 'score', in: 'formData', type: 'number' },
        ],
        responses: { '200': { description: 'ok' } },
      },
    },
  },
  definitions: {
    Order: { type: 'object', required: ['sku'], properties: { sku: { type: 'string' }, qty: { type: 'integer' }, gift: { type: 'boolean' } } },
  },
});

const detailOf = async (id: string) => expectOk(await call('GET', `${URL}/${id}`, 'owner'));
const fnByName = (d: { functions: { name: string }[] }, name: string) => d.functions.find((x) => x.name === name) as Record<string, any>;

describe('POST /tools/import-openapi', () => {
  it('imports an OpenAPI 3 YAML document: one function per operation, rows by location', async () => {
    const t = expectOk(await call('POST', `${URL}/import-openapi`, 'owner', { body: { document: PETSTORE_V3 } }));
    expect(t).toMatchObject({ name: 'Pet Store', intro: 'Pets for sale', type: 'custom', function_count: 5, install_method: 'openapi' });
    // The list says it too (spec 3 "install method").
    expect(expectOk(await call('GET', URL, 'member', { query: { name: 'Pet Store' } })).items[0].install_method).toBe('openapi');
    const d = await detailOf(t.id);
    expect(d.functions.map((x: { name: string; method: string }) => `${x.method} ${x.name}`).sort()).toEqual(
      ['GET listPets', 'POST createPet', 'GET get-pet_by-id', 'DELETE delete_pets_petId', 'POST uploadPhoto'].sort(),
    );
    const list = fnByName(d, 'listPets');
    expect(list.url).toBe('https://eu.pets.example.com/v1/pets');
    expect(list.description).toBe('List pets');
    expect(list.params).toEqual([
      { param_key: 'limit', param_name: 'limit', description: 'Page size', data_type: 'integer', optional_values: '', default_value: '20', is_not_null: false, request_type: 'query_params' },
      { param_key: 'status', param_name: 'status', description: '', data_type: 'string', optional_values: 'available,sold', default_value: '', is_not_null: false, request_type: 'query_params' },
    ]);
    expect(list.headers).toEqual([{ param_key: 'X-Request-Id', param_name: 'X-Request-Id', description: '', data_type: 'string', optional_values: '', default_value: '', is_not_null: false, param_value: '{X_Request_Id}' }]);
    expect(list.response[0]).toMatchObject({ param_key: 'items', data_type: 'object', is_array: true });
    expect(list.response[0].children.map((c: { param_key: string; data_type: string }) => `${c.param_key}:${c.data_type}`)).toEqual(['id:long', 'name:string', 'born:datetime']);

    const create = fnByName(d, 'createPet');
    expect(create.body_subtype).toBe('json');
    expect(create.body).toHaveLength(1);
    expect(create.body[0]).toMatchObject({ param_key: 'data', data_type: 'object', request_type: 'body', request_subtype: 'json' });
    expect(create.body[0].children.map((c: any) => [c.param_key, c.data_type, c.is_array, c.is_not_null])).toEqual([
      ['name', 'string', false, true],
      ['tags', 'string', true, false],
      ['owner', 'object', false, false],
    ]);
    expect(create.body[0].children[2].children.map((c: any) => `${c.param_key}:${c.data_type}`)).toEqual(['email:string', 'vip:boolean']);

    const byId = fnByName(d, 'get-pet_by-id');
    expect(byId.url).toBe('https://eu.pets.example.com/v1/pets/{petId}');
    expect(byId.params).toEqual([expect.objectContaining({ param_key: 'petId', data_type: 'long', request_type: 'query_path', is_not_null: true })]);

    const photo = fnByName(d, 'uploadPhoto');
    expect(photo.body_subtype).toBe('x-www-form-urlencoded');
    expect(photo.body.map((c: any) => [c.param_key, c.data_type, c.is_not_null, c.request_subtype])).toEqual([
      ['caption', 'string', true, 'x-www-form-urlencoded'],
      ['taken', 'datetime', false, 'x-www-form-urlencoded'],
    ]);
  });

  it('imports a Swagger 2.0 JSON document with a name given, body and formData parameters', async () => {
    const t = expectOk(await call('POST', `${URL}/import-openapi`, 'admin', { body: { document: SWAGGER_V2, name: 'Orders' } }));
    expect(t).toMatchObject({ name: 'Orders', function_count: 2 });
    const d = await detailOf(t.id);
    const create = fnByName(d, 'createOrder');
    expect(create.url).toBe('https://orders.example.com/api/orders');
    expect(create.params).toEqual([expect.objectContaining({ param_key: 'dryRun', data_type: 'string', request_type: 'query_params' })]);
    expect(create.body[0].children.map((c: any) => `${c.param_key}:${c.data_type}:${c.is_not_null}`)).toEqual(['sku:string:true', 'qty:integer:false', 'gift:boolean:false']);
    expect(create.response.map((c: any) => c.param_key)).toEqual(['sku', 'qty', 'gift']);
    const note = fnByName(d, 'addNote');
    expect(note.body_subtype).toBe('x-www-form-urlencoded');
    expect(note.body.map((c: any) => `${c.param_key}:${c.data_type}:${c.is_not_null}`)).toEqual(['text:string:true', 'score:decimal:false']);
    expect(note.params).toEqual([expect.objectContaining({ param_key: 'id', request_type: 'query_path' })]);
  });

  it('refuses documents it cannot read, with the reason, creating nothing', async () => {
    const cases: [string, RegExp][] = [
      ['{ not json: [', /neither JSON nor YAML|no paths|Only OpenAPI/],
      [JSON.stringify({ openapi: '3.0.0', info: { title: 'x' }, paths: {} }), /no paths/],
      [JSON.stringify({ swagger: '1.2', paths: { '/a': {} } }), /Only OpenAPI 3.x and Swagger 2.0/],
      [JSON.stringify({ openapi: '3.1.0', info: { title: 'Relative' }, servers: [{ url: '/v1' }], paths: { '/a': { get: {} } } }), /absolute http\(s\) server URL/],
      [JSON.stringify({ openapi: '3.1.0', info: { title: 'NoOps' }, servers: [{ url: 'https://x.example' }], paths: { '/a': { summary: 'x' } } }), /no operations/],
    ];
    for (const [document, msg] of cases) {
      const r = await call('POST', `${URL}/import-openapi`, 'owner', { body: { document } });
      expectCode(r, 400, 'VALIDATION-1000');
      expect(r.body.msg).toMatch(msg);
    }
    expectCode(await call('POST', `${URL}/import-openapi`, 'member', { body: { document: SWAGGER_V2, name: 'By member' } }), 403, 'PERMISSION-1000');
    expectCode(await call('POST', `${URL}/import-openapi`, 'owner', { body: { document: SWAGGER_V2 } }), 200, 0 as never);
    expectCode(await call('POST', `${URL}/import-openapi`, 'owner', { body: { document: SWAGGER_V2 } }), 400, 'VALIDATION-1001');
    const names = (expectOk(await call('GET', URL, 'owner')).items as { name: string }[]).map((x) => x.name).sort();
    expect(names).toEqual(['Legacy Orders', 'Orders', 'Pet Store']);
  });
});
