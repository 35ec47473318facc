import { beforeAll, describe, expect, it } from 'vitest';
import { makeDocx, makePdf } from '../../src/server/knowledge/test-files';
import { useStudio } from './harness';
import { uploadOk, useTempDataDir } from './knowledge-kit';
import { createApp, flow, parseSse, RUNS } from './runs-kit';
import { expectOk, setUpWorkspaces, type Fixture } from './workspace-fixture';

// The document extractor on the real server: files sent with a chat message, read as the sender may
// and parsed by the knowledge parsers (docx, pdf, md), one text per file; a list operator picks them.

const h = useStudio();
useTempDataDir(h);
let f: Fixture;
let appId: string;

const doc = flow(
  [
    ['s', 'start'],
    ['docs', 'list-operator', { variable: ['sys', 'files'], filterEnabled: true, filters: [{ key: 'type', operator: 'in', value: 'document' }], sortEnabled: true, sortKey: 'name' }],
    ['x', 'document-extractor', { variable: ['docs', 'result'] }],
    ['one', 'document-extractor', { variable: ['docs', 'first_record'] }],
    ['ans', 'answer', { answer: 'First: {{#one.text#}}' }],
  ],
  [
    ['s', 'docs'],
    ['docs', 'x'],
    ['x', 'one'],
    ['one', 'ans'],
  ],
  'chatflow',
);

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'docx');
  appId = await createApp(h, f.u.member.token, f.wsA, 'Reader', doc);
});

const member = () => ({ token: f.u.member.token, workspaceId: f.wsA });

describe('document-extractor', () => {
  it('reads docx, pdf and markdown files the user sent, one text each, in the list order', async () => {
    const a = await uploadOk(h, f.u.member.token, f.wsA, 'a-notes.docx', makeDocx(['Alpha paragraph', 'Second line']));
    const b = await uploadOk(h, f.u.member.token, f.wsA, 'b-report.pdf', makePdf([['Beta page text']]));
    const c = await uploadOk(h, f.u.member.token, f.wsA, 'c-readme.md', '# Gamma\n\nmarkdown body');
    const r = await h.call('POST', `${RUNS(appId)}/draft/chat-messages`, {
      ...member(),
      body: { query: 'read them', files: [{ file_id: c, name: 'c-readme.md' }, { file_id: a, name: 'a-notes.docx' }, { file_id: b, name: 'b-report.pdf' }] },
    });
    expect(r.status, r.raw.body).toBe(200);
    const events = parseSse(r.raw.body);
    const end = events.at(-1)!;
    expect(end).toMatchObject({ type: 'run_finished' });
    if (end.type !== 'run_finished') return;
    expect(end.answer).toMatch(/^First: Alpha paragraph\s+Second line\s*$/);
    const created = events[0];
    if (created.type !== 'run_created') throw new Error('first event');
    const detail = expectOk(await h.call('GET', `${RUNS(appId)}/runs/${created.runId}`, member()));
    const texts = detail.nodes.find((n: { node_id: string }) => n.node_id === 'x').outputs.text as string[];
    expect(texts).toHaveLength(3);
    expect(texts[0]).toContain('Alpha paragraph');
    expect(texts[1]).toContain('Beta page text');
    expect(texts[2]).toContain('markdown body');
  });

  it('fails the node with DOCUMENT-READ-FAILED for a file it cannot parse', async () => {
    const bin = await uploadOk(h, f.u.member.token, f.wsA, 'z-broken.pdf', 'this is not a PDF');
    const r = await h.call('POST', `${RUNS(appId)}/draft/chat-messages`, { ...member(), body: { query: 'read', files: [{ file_id: bin, name: 'z-broken.pdf' }] } });
    const end = parseSse(r.raw.body).at(-1)!;
    expect(end).toMatchObject({ type: 'run_failed', error: { code: 'DOCUMENT-READ-FAILED' } });
  });
});
