import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { guard, type GuardSchema } from './guard';
import { answerSchemas } from './guard-schemas';
import { guardSchemaOf, guardSources, renderGuardSchemas } from './guard-sources';
import { getAppConfig } from './common';
import { ClientErrorCode, configureRequest } from './request';
import { listWorkspaces } from './workspaces';
import { ok, sendJson, startServer, type TestServer } from './testing/http-server';

const UUID = '5f0c2a8e-3b1d-4c6e-9f7a-2d4b6c8e0a1f';

/** A valid answer for a guard schema: every property (`all`) or only the required ones. */
function sample(schema: GuardSchema, all: boolean): unknown {
  if ('const' in schema) return schema.const;
  if (schema.enum) return schema.enum[schema.enum.length - 1];
  if (schema.anyOf) return sample(schema.anyOf[0], all);
  switch (schema.type) {
    case 'string':
      return schema.format === 'uuid' ? UUID : 'x'.repeat(Math.max(schema.minLength ?? 0, 3));
    case 'integer':
      return (schema.exclusiveMinimum ?? schema.minimum ?? 0) + 2;
    case 'number':
      return (schema.exclusiveMinimum ?? schema.minimum ?? 0) + 2.5;
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array':
      return [sample(schema.items!, all), sample(schema.items!, !all)];
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.properties ?? {})
          .filter(([k]) => all || schema.required?.includes(k))
          .map(([k, p]) => [k, sample(p, all)]),
      );
    default:
      return 'anything';
  }
}

/** Every place in a value, with the value there. */
function places(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (typeof value !== 'object' || value === null) return [at];
  const inner = Object.entries(value).flatMap(([k, v]) => places(v, [...at, Array.isArray(value) ? Number(k) : k]));
  return [at, ...inner];
}

function changed(value: unknown, at: (string | number)[], to: unknown): unknown {
  if (at.length === 0) return to;
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let node = copy;
  for (const k of at.slice(0, -1)) node = node[k] as Record<string | number, unknown>;
  if (to === undefined) delete node[at.at(-1)!];
  else node[at.at(-1)!] = to;
  return copy;
}

/** Wrong values to put in a place: missing, null, of another type, out of range, malformed. */
const WRONG = [undefined, null, 0, -1, 1.5, '', 'not-a-uuid', true, [], {}, 2 ** 60];

describe('guards', () => {
  it('are generated from the current schemas (run `npx tsx scripts/client-guards.ts` after changing one)', () => {
    expect(fs.readFileSync(path.join(import.meta.dirname, 'guard-schemas.ts'), 'utf8')).toBe(renderGuardSchemas());
  });

  it('answer what zod answers: the same data for good answers (defaults, unknown keys dropped), a failure for bad ones', () => {
    let compared = 0;
    for (const [name, schema] of Object.entries(guardSources) as [keyof typeof guardSources, z.ZodType][]) {
      const g = guard(answerSchemas[name]);
      const good = [sample(answerSchemas[name], true), sample(answerSchemas[name], false)];
      const cases = good.flatMap((v) => [v, ...places(v).flatMap((at) => [...WRONG.map((w) => changed(v, at, w)), at.length ? changed(v, [...at.slice(0, -1), 'unknown_key'], 1) : v])]);
      for (const value of cases) {
        const want = schema.safeParse(value);
        const got = g.safeParse(value);
        expect(got.success, `${name}: ${JSON.stringify(value)}`).toBe(want.success);
        if (want.success && got.success) expect(got.data, `${name}: ${JSON.stringify(value)}`).toEqual(want.data);
        compared++;
      }
      expect(good.every((v) => schema.safeParse(v).success), `${name}: the samples are good`).toBe(true);
    }
    expect(compared).toBeGreaterThan(1000);
  });

  it('are refused for schemas JSON Schema cannot say (a refinement, a transform)', () => {
    expect(() => guardSchemaOf('refined', z.object({ a: z.string().refine((s) => s !== 'b') }))).toThrow(/refinement/);
    expect(() => guardSchemaOf('transformed', z.object({ a: z.string().transform((s) => s.length) }))).toThrow();
    expect(() => guardSchemaOf('flags', z.string().regex(/a/i))).toThrow(/flags/);
    expect(guardSchemaOf('plain', z.object({ a: z.string().max(3) }))).toEqual({ type: 'object', properties: { a: { type: 'string', maxLength: 3 } }, required: ['a'] });
  });
});

describe('calls checked by guards', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
    configureRequest({ baseUrl: server.url });
  });
  afterAll(() => server.close());

  it('fill defaults and drop unknown keys of a good answer, and reject a bad one with CLIENT-BAD-RESPONSE', async () => {
    server.handle((_req, res) => sendJson(res, 200, { upload: { maxCount: 3, maxMb: 5 }, extra: 1 }));
    await expect(getAppConfig()).resolves.toEqual({ authMode: 'local', codeLogin: [], defaultTenantId: '00000000-0000-0000-0000-000000000000', upload: { maxCount: 3, maxMb: 5 }, tokenRefreshLeewaySeconds: 5, sandbox: { maxTimeoutSeconds: 60 }, version: '' });
    server.handle((_req, res) => ok(res, { items: [{ id: UUID, name: 'A' }], total: 1, page: 1, page_size: 20 }));
    await expect(listWorkspaces({}, { reaction: 'silent' })).rejects.toMatchObject({
      status: 200,
      code: ClientErrorCode.BAD_RESPONSE,
      data: expect.arrayContaining([expect.objectContaining({ path: ['items', 0, 'description'] })]),
    });
  });
});
