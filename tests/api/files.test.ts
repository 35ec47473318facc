import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { files } from '../../src/server/db/schema';
import { makeDocx, makePdf, makeXlsx } from '../../src/server/knowledge/test-files';
import { useStudio } from './harness';
import { multipartBody, upload, useTempDataDir } from './knowledge-kit';
import { expectCode, expectOk, MISSING, setUpWorkspaces, type Fixture } from './workspace-fixture';
import { createApp, flow, parseSse, RUNS } from './runs-kit';
import { messages, runs } from '../../src/server/db/schema';

// The files group (7.5): multipart upload checked by biz_type, preview, download, and the public icon route.

const h = useStudio();
const tmp = useTempDataDir(h);
let f: Fixture;
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000105fe02fea70000000049454e44ae426082', 'hex');
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><script>alert(1)</script><rect width="4" height="4"/></svg>';

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'files');
});

describe('upload', () => {
  it('stores a knowledge file under the data directory and answers its description', async () => {
    const up = expectOk(await upload(h, f.u.member.token, f.wsA, '说明 guide.txt', 'Hello 你好'));
    expect(up).toEqual({ id: expect.any(String), name: '说明 guide.txt', size: Buffer.byteLength('Hello 你好'), mime_type: 'text/plain' });
    const [row] = await h.studio.ctx.db.select().from(files).where(eq(files.id, up.id));
    expect(row).toMatchObject({ bizType: 'dataset', workspaceId: f.wsA, createdBy: f.u.member.id });
    expect(row!.sha256).toMatch(/^[0-9a-f]{64}$/);
    const onDisk = path.join(tmp.dir(), ...row!.storageKey.split('/'));
    expect(fs.readFileSync(onDisk, 'utf8')).toBe('Hello 你好');
  });

  it('refuses wrong types, sizes, biz types and callers, storing nothing', async () => {
    const before = (await h.studio.ctx.db.select().from(files)).length;
    const exe = await upload(h, f.u.member.token, f.wsA, 'tool.exe', 'MZ');
    expectCode(exe, 400, 'VALIDATION-1000');
    expect(exe.body.msg).toContain('Unsupported file type');
    expectCode(await upload(h, f.u.member.token, f.wsA, 'empty.txt', ''), 400, 'VALIDATION-1000');
    const biz = await upload(h, f.u.member.token, f.wsA, 'a.txt', 'x', 'avatar');
    expectCode(biz, 400, 'VALIDATION-1000');
    expect(biz.body.msg).toContain('biz_type');
    // Icons: image types only, real images only, at most 5 MB.
    expectCode(await upload(h, f.u.member.token, f.wsA, 'icon.txt', 'x', 'icon'), 400, 'VALIDATION-1000');
    expectCode(await upload(h, f.u.member.token, f.wsA, 'fake.png', '<html>not a png</html>', 'icon'), 400, 'VALIDATION-1000');
    const big = await upload(h, f.u.member.token, f.wsA, 'big.png', Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]), 'icon');
    expectCode(big, 400, 'VALIDATION-1000');
    expect(big.body.msg).toContain('5 MB');
    // A configured limit applies to knowledge files.
    const limit = h.studio.ctx.settings.uploadMaxMb;
    h.studio.ctx.settings.uploadMaxMb = 1;
    try {
      const large = await upload(h, f.u.member.token, f.wsA, 'large.txt', 'a'.repeat(1024 * 1024 + 10));
      expectCode(large, 400, 'VALIDATION-1000');
      expect(large.body.msg).toContain('1 MB');
    } finally {
      h.studio.ctx.settings.uploadMaxMb = limit;
    }
    // No file part, not multipart, no workspace, not a member, another tenant, no token.
    const noFile = await multipartBody({ biz_type: 'dataset' });
    expectCode(await h.call('POST', '/api/v1/console/files/upload', { token: f.u.member.token, workspaceId: f.wsA, body: noFile.payload, headers: { 'content-type': noFile.contentType } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', '/api/v1/console/files/upload', { token: f.u.member.token, workspaceId: f.wsA, body: { biz_type: 'dataset' } }), 400, 'VALIDATION-1000');
    expectCode(await upload(h, f.u.member.token, undefined, 'a.txt', 'x'), 400, 'VALIDATION-1000');
    expectCode(await upload(h, f.u.outsider.token, f.wsA, 'a.txt', 'x'), 400, 'VALIDATION-1000');
    expectCode(await upload(h, f.u.foreign.token, f.wsA, 'a.txt', 'x'), 400, 'VALIDATION-1000');
    expectCode(await upload(h, '', f.wsA, 'a.txt', 'x'), 401, 'AUTH-1001');
    expect((await h.studio.ctx.db.select().from(files)).length).toBe(before);
  });
});

describe('preview and download', () => {
  let txt: string;
  let pdf: string;
  let docx: string;
  let xlsx: string;
  let png: string;
  beforeAll(async () => {
    txt = expectOk(await upload(h, f.u.member.token, f.wsA, '笔记.md', '# Title\n\n中文 text')).id;
    pdf = expectOk(await upload(h, f.u.member.token, f.wsA, 'doc.pdf', makePdf([['Hello PDF']]))).id;
    docx = expectOk(await upload(h, f.u.member.token, f.wsA, 'word.docx', makeDocx(['第一段 first', 'Second paragraph']))).id;
    xlsx = expectOk(await upload(h, f.u.member.token, f.wsA, 'table.xlsx', await makeXlsx([{ name: 'S', rows: [['名字', 'Age'], ['张三', 30]] }]))).id;
    png = expectOk(await upload(h, f.u.member.token, f.wsA, 'logo.png', PNG, 'icon')).id;
  });

  it('previews text, PDF and images inline with their type', async () => {
    const t = await h.call('GET', `/api/v1/console/files/${txt}/preview`, { token: f.u.owner.token });
    expect(t.status).toBe(200);
    expect(t.raw.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(t.raw.headers['x-content-type-options']).toBe('nosniff');
    expect(t.raw.body).toBe('# Title\n\n中文 text');
    const p = await h.call('GET', `/api/v1/console/files/${pdf}/preview`, { token: f.u.owner.token });
    expect(p.raw.headers['content-type']).toBe('application/pdf');
    expect(p.raw.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(p.raw.headers['content-disposition']).toMatch(/^inline; /);
    const i = await h.call('GET', `/api/v1/console/files/${png}/preview`, { token: f.u.member.token });
    expect(i.raw.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(i.raw.rawPayload, PNG)).toBe(0);
  });

  it('previews Word and Excel files as JSON', async () => {
    const d = expectOk(await h.call('GET', `/api/v1/console/files/${docx}/preview`, { token: f.u.member.token }));
    expect(d).toMatchObject({ name: 'word.docx', kind: 'text', truncated: false });
    expect(d.text).toContain('第一段 first');
    const x = expectOk(await h.call('GET', `/api/v1/console/files/${xlsx}/preview`, { token: f.u.member.token }));
    expect(x.sheets).toEqual([{ name: 'S', headers: ['名字', 'Age'], rows: [['张三', '30']], total_rows: 1 }]);
  });

  it('downloads as an attachment with the UTF-8 name', async () => {
    const r = await h.call('GET', `/api/v1/console/files/${txt}/download`, { token: f.u.member.token });
    expect(r.status).toBe(200);
    expect(r.raw.headers['content-disposition']).toBe(`attachment; filename="__.md"; filename*=UTF-8''${encodeURIComponent('笔记.md')}`);
    expect(r.raw.body).toBe('# Title\n\n中文 text');
  });

  it('hides files from other workspaces and tenants', async () => {
    for (const [token, what] of [
      [f.u.outsider.token, 'preview'],
      [f.u.outsider.token, 'download'],
      [f.u.foreign.token, 'download'],
    ] as const) {
      expectCode(await h.call('GET', `/api/v1/console/files/${txt}/${what}`, { token }), 400, 'VALIDATION-1000');
    }
    expectCode(await h.call('GET', `/api/v1/console/files/${MISSING}/download`, { token: f.u.member.token }), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', `/api/v1/console/files/nope/download`, { token: f.u.member.token }), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', `/api/v1/console/files/${txt}/download`, {}), 401, 'AUTH-1001');
  });
});

describe('who may read a file (issue 20, finding 10)', () => {
  const read = (token: string, id: string) => h.call('GET', `/api/v1/console/files/${id}/preview`, { token });
  const refused = async (token: string, id: string) => {
    expectCode(await read(token, id), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', `/api/v1/console/files/${id}/download`, { token }), 400, 'VALIDATION-1000');
  };

  it('a chat file without a project space: its uploader only, not the rest of the tenant', async () => {
    const chat = expectOk(await upload(h, f.u.member.token, undefined, 'note.txt', 'private words', 'chat')).id;
    expect((await read(f.u.member.token, chat)).raw.body).toBe('private words');
    expect((await h.call('GET', `/api/v1/console/files/${chat}/download`, { token: f.u.member.token })).status).toBe(200);
    // Same tenant, even a member of the uploader's workspaces; another tenant; the super admin too.
    for (const token of [f.u.owner.token, f.u.admin.token, f.u.outsider.token, f.u.foreign.token, h.adminToken]) await refused(token, chat);
  });

  it('a workspace file: its members, not other users of the tenant or other tenants', async () => {
    const doc = expectOk(await upload(h, f.u.member.token, f.wsA, 'team.txt', 'team words')).id;
    for (const token of [f.u.member.token, f.u.owner.token, f.u.admin.token]) expect((await read(token, doc)).status).toBe(200);
    for (const token of [f.u.outsider.token, f.u.foreign.token]) await refused(token, doc);
  });

  it("a file sent in a conversation: its user's; another member cannot post into it; referring to another's file is refused", async () => {
    const app = await createApp(h, f.u.owner.token, f.wsA, 'File chat', flow([['s', 'start'], ['a', 'answer', { answer: 'ok' }]], [['s', 'a']], 'chatflow'));
    const started = parseSse((await h.call('POST', `${RUNS(app)}/draft/chat-messages`, { token: f.u.owner.token, workspaceId: f.wsA, body: { query: 'first' } })).raw.body);
    const conversationId = (started[0] as { conversationId: string }).conversationId;
    // A debug conversation is its member's own: another member cannot add a message (and a file) to it.
    const shared = expectOk(await upload(h, f.u.member.token, undefined, 'shared.txt', 'shared words', 'chat')).id;
    const intruding = await h.call('POST', `${RUNS(app)}/draft/chat-messages`, {
      token: f.u.member.token,
      workspaceId: f.wsA,
      body: { query: 'with a file', conversation_id: conversationId, files: [{ file_id: shared, name: 'shared.txt' }] },
    });
    expectCode(intruding, 400, 'VALIDATION-1000');
    await refused(f.u.owner.token, shared);
    // The conversation's own user sends a file of theirs in it: still theirs alone among the others.
    const own = expectOk(await upload(h, f.u.owner.token, undefined, 'own.txt', 'own words', 'chat')).id;
    const sent = await h.call('POST', `${RUNS(app)}/draft/chat-messages`, {
      token: f.u.owner.token,
      workspaceId: f.wsA,
      body: { query: 'with a file', conversation_id: conversationId, files: [{ file_id: own, name: 'own.txt' }] },
    });
    expect(sent.status).toBe(200);
    expect((await read(f.u.owner.token, own)).raw.body).toBe('own words');
    await refused(f.u.admin.token, own);
    // Naming a file one may not read in a message of one's own does not open it: refused before any write.
    const secret = expectOk(await upload(h, f.u.member.token, undefined, 'secret.txt', 'secret words', 'chat')).id;
    const before = { runs: (await h.studio.ctx.db.select().from(runs)).length, messages: (await h.studio.ctx.db.select().from(messages)).length };
    const stolen = await h.call('POST', `${RUNS(app)}/draft/chat-messages`, { token: f.u.admin.token, workspaceId: f.wsA, body: { query: 'mine now', files: [{ file_id: secret }] } });
    expectCode(stolen, 400, 'VALIDATION-1000');
    expect(stolen.body.data).toEqual([{ path: 'body/files/0/file_id', message: expect.any(String) }]);
    expect({ runs: (await h.studio.ctx.db.select().from(runs)).length, messages: (await h.studio.ctx.db.select().from(messages)).length }).toEqual(before);
    await refused(f.u.admin.token, secret);
  });
});

describe('a file\'s description, one or many (spec 7.5: GET /files/{id}, POST /files/batch)', () => {
  let mine: string;
  let other: string;
  beforeAll(async () => {
    mine = expectOk(await upload(h, f.u.member.token, f.wsA, 'one.txt', 'one')).id;
    other = expectOk(await upload(h, f.u.foreign.token, undefined, 'theirs.png', PNG, 'icon')).id;
  });

  it('describes a readable file; the same not-found answer for another tenant\'s, a missing or a malformed id', async () => {
    const one = expectOk(await h.call('GET', `/api/v1/console/files/${mine}`, { token: f.u.member.token }));
    expect(one).toEqual({ id: mine, name: 'one.txt', size: 3, mime_type: 'text/plain', biz_type: 'dataset', workspace_id: f.wsA, created_at: expect.stringMatching(/^\d{4}-/) });
    for (const id of [other, MISSING, 'nope']) expectCode(await h.call('GET', `/api/v1/console/files/${id}`, { token: f.u.member.token }), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', `/api/v1/console/files/${mine}`, { token: f.u.outsider.token }), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', `/api/v1/console/files/${mine}`, {}), 401, 'AUTH-1001');
  });

  it('describes many in the order asked, leaving out those the caller may not read; bad lists are refused', async () => {
    const many = expectOk(await h.call('POST', '/api/v1/console/files/batch', { token: f.u.member.token, body: { file_ids: [other, mine, MISSING, mine] } }));
    expect(many.map((x: { id: string }) => x.id)).toEqual([mine]);
    expect(expectOk(await h.call('POST', '/api/v1/console/files/batch', { token: f.u.outsider.token, body: { file_ids: [mine] } }))).toEqual([]);
    for (const body of [{}, { file_ids: [] }, { file_ids: 'x' }, { file_ids: Array.from({ length: 101 }, () => mine) }]) {
      expectCode(await h.call('POST', '/api/v1/console/files/batch', { token: f.u.member.token, body }), 400, 'VALIDATION-1000');
    }
    expectCode(await h.call('POST', '/api/v1/console/files/batch', { body: { file_ids: [mine] } }), 401, 'AUTH-1001');
  });
});

describe('public icons', () => {
  it('serves icon images without a token, svg under a CSP, nothing else', async () => {
    const png = expectOk(await upload(h, f.u.member.token, f.wsA, 'app.png', PNG, 'icon')).id;
    const r = await h.call('GET', `/api/v1/common/files/${png}/icon`);
    expect(r.status).toBe(200);
    expect(r.raw.headers['content-type']).toBe('image/png');
    expect(r.raw.headers['cache-control']).toContain('max-age=31536000');
    expect(r.raw.headers['x-content-type-options']).toBe('nosniff');
    const svg = expectOk(await upload(h, f.u.member.token, undefined, 'app.svg', SVG, 'icon')).id;
    const s = await h.call('GET', `/api/v1/common/files/${svg}/icon`);
    expect(s.raw.headers['content-type']).toBe('image/svg+xml');
    expect(s.raw.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(s.raw.body).toBe(SVG);
    // A knowledge file is never served there; nor an unknown id; the console routes still need a token.
    const txt = expectOk(await upload(h, f.u.member.token, f.wsA, 'secret.txt', 'secret')).id;
    expectCode(await h.call('GET', `/api/v1/common/files/${txt}/icon`), 404, 'VALIDATION-1000');
    expectCode(await h.call('GET', `/api/v1/common/files/${MISSING}/icon`), 404, 'VALIDATION-1000');
    expectCode(await h.call('GET', `/api/v1/common/files/${png}/other`), 401, 'AUTH-1001');
    expectCode(await h.call('GET', `/api/v1/console/files/${png}/preview`), 401, 'AUTH-1001');
  });
});

describe('OpenAPI', () => {
  it('documents the file routes', async () => {
    const doc = await h.call('GET', '/api/v1/openapi.json');
    expect(doc.status).toBe(200);
    const paths = Object.keys(doc.raw.json().paths);
    expect(paths).toEqual(expect.arrayContaining(['/api/v1/console/files/upload', '/api/v1/console/files/{file_id}', '/api/v1/console/files/batch', '/api/v1/console/files/{file_id}/preview', '/api/v1/console/files/{file_id}/download', '/api/v1/common/files/{file_id}/icon', '/api/v1/console/datasets/{dataset_id}/documents', '/api/v1/admin/datasets/management']));
  });
});
