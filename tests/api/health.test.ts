import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../schemas/errors';
import { useStudio } from './harness';

// The probes a load balancer or orchestrator sends: no token, outside /api, documented in OpenAPI.
const h = useStudio();

describe('GET /healthz', () => {
  it('says the process is up, without a token', async () => {
    const r = await h.call('GET', '/healthz');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ code: 0, data: { status: 'up' } });
    expect(r.body.data.uptime_s).toBeGreaterThan(0);
  });
});

describe('GET /readyz', () => {
  it('is ready once the studio is built: the database answers and a sandbox worker is warm', async () => {
    const r = await h.call('GET', '/readyz');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ code: 0, msg: 'success', data: { ready: true, database: 'ready', sandbox: 'ready', stopping: false } });
  });

  it('answers 503 SYSTEM-1503 with what is missing while the sandbox is not ready', async () => {
    // The sandbox closed (as when a shutdown ends its workers): no longer warm.
    const sandbox = h.studio.ctx.sandbox;
    const warmed = Object.getOwnPropertyDescriptor(sandbox, 'warmed')!;
    expect(warmed.get).toBeTypeOf('function');
    Object.defineProperty(sandbox, 'warmed', { get: () => false, configurable: true });
    try {
      const r = await h.call('GET', '/readyz');
      expect(r.status).toBe(503);
      expect(r.body).toMatchObject({ code: ErrorCode.NOT_READY, data: { ready: false, database: 'ready', sandbox: 'starting', stopping: false } });
    } finally {
      Object.defineProperty(sandbox, 'warmed', warmed);
    }
  });
});

describe('OpenAPI', () => {
  it('documents both probes, with no security', async () => {
    const r = await h.call('GET', '/api/v1/openapi.json', { token: h.adminToken });
    const doc = r.raw.json() as { paths: Record<string, { get?: { security?: unknown[]; responses: Record<string, unknown> } }> };
    expect(doc.paths['/healthz']?.get?.security).toEqual([]);
    expect(doc.paths['/readyz']?.get?.security).toEqual([]);
    expect(Object.keys(doc.paths['/readyz']!.get!.responses)).toEqual(expect.arrayContaining(['200', '503']));
  });
});
