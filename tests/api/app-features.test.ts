import { beforeAll, describe, expect, it } from 'vitest';
import { featuresOf, type FlowDocument } from '../../schemas/flow';
import { useStudio } from './harness';
import { createApp, flow } from './runs-kit';
import { expectCode, expectOk, setUpWorkspaces, type Fixture } from './workspace-fixture';

// The app's features in the draft (issue 21): saved with the flow document, refused (VALIDATION-1000,
// nothing changed) when more suggested questions are to be shown than there are.

const h = useStudio();
let f: Fixture;
let appId = '';
const chat = flow([['s', 'start'], ['a', 'answer', { answer: 'Hi' }]], [['s', 'a']], 'chatflow');
const as = () => ({ token: f.u.member.token, workspaceId: f.wsA });
const draft = async () => expectOk(await h.call('GET', `/api/v1/console/apps/${appId}/workflow`, as()));
const save = async (document: FlowDocument, base: number) => h.call('PUT', '/api/v1/console/apps/workflow', { ...as(), body: { app_id: appId, base_revision: base, document } });

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'features');
  appId = await createApp(h, f.u.member.token, f.wsA, 'Order helper', chat);
});

describe('app features in the draft', () => {
  it('are saved with the document and read back', async () => {
    const d = await draft();
    const features = { ...featuresOf({}), opening_statement: 'Hello', suggested_questions: ['a', 'b', 'c'], suggested_questions_random_count: 2 };
    expectOk(await save({ ...d.document, features }, d.revision));
    expect((await draft()).document.features).toEqual(features);
  });

  it('refuse a random-display count above the number of questions, changing nothing', async () => {
    const d = await draft();
    const r = await save({ ...d.document, features: { ...d.document.features, suggested_questions: ['a'], suggested_questions_random_count: 2 } }, d.revision);
    expectCode(r, 400, 'VALIDATION-1000');
    expect(r.raw.body).toContain('The number of suggested questions shown cannot exceed the number of suggested questions');
    const after = await draft();
    expect(after.revision).toBe(d.revision);
    expect(after.document.features.suggested_questions).toEqual(['a', 'b', 'c']);
  });
});
