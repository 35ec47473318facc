import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { DistributionList } from '../../schemas/distribution';
import { appDistributions, approvals, orgs, orgUsers, storeItems } from '../../src/server/db/schema';
import { createUser } from '../../src/server/services/users';
import { DEFAULT_TENANT_ID, useStudio } from './harness';
import { DIST, distribute, echoFlow, platformOf, publish as publishVersion } from './portal-kit';
import { createApp } from './runs-kit';
import { expectCode, expectOk, PASSWORD, setUpWorkspaces, type Fixture } from './workspace-fixture';

// Approval flows (issue 33): the tenant setting, then a store submission and a portal distribution
// through processing, returned, rejected, canceled, agreed and forced recall; wrong role, another
// tenant, wrong state and two approvers deciding at once; without the setting, no approval rows.

const h = useStudio();
let f: Fixture;
let tenantAdmin = '';
let tenantAdminId = '';
let orgId = '';
let promptId = '';
let itemId = '';
const APPROVALS = '/api/v1/console/approvals';
const SETTINGS = '/api/v1/admin/approval/settings';
const as = (who: keyof Fixture['u']) => ({ token: f.u[who].token });
const ownerWs = () => ({ token: f.u.owner.token, workspaceId: f.wsA });
const submit = () => h.call('POST', '/api/v1/console/store/prompts/publish', { ...ownerWs(), body: { id: promptId } });
const decide = (who: { token: string }, id: string, action: string, comment?: string) => h.call('POST', `${APPROVALS}/${id}/${action}`, { ...who, body: comment === undefined ? {} : { comment } });
const itemState = async () => (await h.studio.ctx.db.select().from(storeItems).where(eq(storeItems.id, itemId)))[0];
const bell = async (who: { token: string }) => expectOk(await h.call('GET', `${APPROVALS}/notifications`, who));
const submission = async () => expectOk(await h.call('GET', '/api/v1/console/store/submission', { ...ownerWs(), query: { type: 'prompt', source_id: promptId } }));

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'appr');
  const ta = await createUser(h.studio.ctx.db, { tenantId: DEFAULT_TENANT_ID, username: 'appr_tadmin', password: PASSWORD, role: 'tenant_admin' });
  tenantAdminId = ta.id;
  tenantAdmin = await h.login('appr_tadmin', PASSWORD, DEFAULT_TENANT_ID);
  // An organisation whose sub-organisation holds the ordinary member: its members approve.
  orgId = randomUUID();
  const sub = randomUUID();
  await h.studio.ctx.db.insert(orgs).values([
    { id: orgId, tenantId: DEFAULT_TENANT_ID, name: 'Reviewers' },
    { id: sub, tenantId: DEFAULT_TENANT_ID, parentId: orgId, name: 'Reviewers East' },
  ]);
  await h.studio.ctx.db.insert(orgUsers).values({ orgId: sub, userId: f.u.member.id });
  promptId = expectOk(await h.call('POST', '/api/v1/console/prompts', { ...ownerWs(), body: { name: 'Greeter', content: 'Greet {name}.', template_type: 'f-string' } })).id;
});

describe('the tenant setting', () => {
  it('is a tenant admin’s; approvers are people, organisations or the admin role of the tenant', async () => {
    expectCode(await h.call('GET', SETTINGS, as('owner')), 403, 'PERMISSION-1000');
    expectCode(await h.call('PUT', SETTINGS, { ...as('owner'), body: { store: true, portal: true, approvers: [] } }), 403, 'PERMISSION-1000');
    expect(expectOk(await h.call('GET', SETTINGS, { token: tenantAdmin }))).toMatchObject({ store: false, portal: false, approvers: [] });
    expectCode(await h.call('PUT', SETTINGS, { token: tenantAdmin, body: { store: true, portal: false, approvers: [] } }), 400, 'APPROVAL-1005');
    // A person of another tenant is no approver here; nothing is saved.
    expectCode(await h.call('PUT', SETTINGS, { token: tenantAdmin, body: { store: true, portal: true, approvers: [{ kind: 'user', id: f.u.foreign.id }] } }), 400, 'APPROVAL-1005');
    expectCode(await h.call('PUT', SETTINGS, { token: tenantAdmin, body: { store: true, portal: true, approvers: [{ kind: 'role', id: 'owner' }] } }), 400, 'VALIDATION-1000');
    expect(expectOk(await h.call('GET', SETTINGS, { token: tenantAdmin })).store).toBe(false);
    const approvers = [
      { kind: 'user', id: f.u.outsider.id },
      { kind: 'org', id: orgId },
      { kind: 'role', id: 'tenant_admin' },
    ];
    const saved = expectOk(await h.call('PUT', SETTINGS, { token: tenantAdmin, body: { store: true, portal: true, approvers } }));
    expect(saved.approvers.map((a: { name: string }) => a.name)).toEqual(['appr_outsider', 'Reviewers', '']);
  });
});

describe('a store submission', () => {
  let id = '';

  it('opens an approval in processing; the item waits for it before a store manager sees it', async () => {
    const item = expectOk(await submit());
    itemId = item.id;
    expect(item).toMatchObject({ review_state: 'in_approval', approval: { state: 'processing' } });
    id = item.approval.id;
    expectCode(await h.call('POST', `/api/v1/admin/store/prompt/${itemId}/release`, { token: h.adminToken }), 409, 'STORE-1000');
    // Submitting again while processing changes nothing.
    expectCode(await submit(), 409, 'APPROVAL-1003');
    expect(await bell(as('outsider'))).toEqual({ to_approve: 1, decided: 0 });
    expect(await bell(as('member'))).toEqual({ to_approve: 1, decided: 0 });
    expect(await bell(as('owner'))).toEqual({ to_approve: 0, decided: 0 });
    const todo = expectOk(await h.call('GET', APPROVALS, { ...as('member'), query: { box: 'todo' } }));
    expect(todo.items.map((a: { id: string }) => a.id)).toEqual([id]);
    expect(todo.items[0]).toMatchObject({ title: 'Greeter', item_type: 'prompt', can_decide: true, submitted_by: f.u.owner.id });
  });

  it('refuses the submitter, non-approvers, another tenant and a return without a comment', async () => {
    expectCode(await decide(as('owner'), id, 'agree'), 403, 'APPROVAL-1002');
    expectCode(await decide(as('admin'), id, 'agree'), 403, 'APPROVAL-1001');
    expectCode(await decide(as('foreign'), id, 'agree'), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', `${APPROVALS}/${id}`, as('foreign')), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', `${APPROVALS}/${id}`, as('admin')), 400, 'VALIDATION-1000');
    expectCode(await decide(as('outsider'), id, 'return', '  '), 400, 'VALIDATION-1000');
    expectCode(await decide(as('outsider'), id, 'cancel'), 403, 'PERMISSION-1000');
    expectCode(await decide(as('outsider'), id, 'recall'), 403, 'PERMISSION-1000');
    expect((await itemState()).reviewState).toBe('in_approval');
  });

  it('is returned with a comment, resubmitted, and agreed by one of two approvers deciding at once', async () => {
    const returned = expectOk(await decide(as('outsider'), id, 'return', 'Add a description'));
    expect(returned).toMatchObject({ state: 'returned', last_comment: 'Add a description', can_decide: false });
    expect(await bell(as('owner'))).toEqual({ to_approve: 0, decided: 1 });
    expect(expectOk(await h.call('POST', `${APPROVALS}/seen`, as('owner')))).toEqual({ to_approve: 0, decided: 0 });
    expectCode(await decide(as('member'), id, 'agree'), 409, 'APPROVAL-1000');
    expect((await submission()).approval).toMatchObject({ id, state: 'returned', last_comment: 'Add a description' });
    expect(expectOk(await submit()).approval).toMatchObject({ id, state: 'processing' });
    const [a, b] = await Promise.all([decide(as('outsider'), id, 'agree'), decide(as('member'), id, 'agree', 'Fine')]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect([a, b].find((r) => r.status === 409)!.body.code).toBe('APPROVAL-1000');
    expect((await itemState()).reviewState).toBe('awaiting_release');
    const detail = expectOk(await h.call('GET', `${APPROVALS}/${id}`, as('owner')));
    expect(detail.steps.map((s: { action: string; to_state: string }) => `${s.action}:${s.to_state}`)).toEqual(['submit:processing', 'return:returned', 'resubmit:processing', 'agree:agreed']);
    expect(detail.steps[1]).toMatchObject({ actor_id: f.u.outsider.id, comment: 'Add a description', from_state: 'processing' });
    expect(detail.can_recall).toBe(true);
  });

  it('is recalled by its submitter while not released; once released only an admin forces the recall', async () => {
    expect(expectOk(await decide(as('owner'), id, 'recall'))).toMatchObject({ state: 'canceled' });
    expect((await itemState()).reviewState).toBe('offline');
    const next = expectOk(await submit()).approval.id as string;
    expect(next).not.toBe(id);
    // The tenant admin approves through the role.
    expect(expectOk(await decide({ token: tenantAdmin }, next, 'agree'))).toMatchObject({ state: 'agreed' });
    expectOk(await h.call('POST', `/api/v1/admin/store/prompt/${itemId}/release`, { token: h.adminToken }));
    expectCode(await decide(as('owner'), next, 'recall'), 409, 'APPROVAL-1004');
    expectCode(await h.call('POST', `/api/v1/admin/approval/${next}/force-recall`, { ...as('owner'), body: {} }), 403, 'PERMISSION-1000');
    const forced = expectOk(await h.call('POST', `/api/v1/admin/approval/${next}/force-recall`, { token: tenantAdmin, body: { comment: 'Licence unclear' } }));
    expect(forced).toMatchObject({ state: 'forced_recall', last_comment: 'Licence unclear' });
    expect(await itemState()).toMatchObject({ reviewState: 'offline', reviewReason: 'Licence unclear' });
    expectCode(await h.call('POST', `/api/v1/admin/approval/${next}/force-recall`, { token: tenantAdmin, body: {} }), 409, 'APPROVAL-1000');
  });

  it('is canceled by its submitter while processing, and rejected by an approver', async () => {
    const c = expectOk(await submit()).approval.id as string;
    expect(expectOk(await decide(as('owner'), c, 'cancel'))).toMatchObject({ state: 'canceled' });
    expect((await itemState()).reviewState).toBe('offline');
    expectCode(await decide(as('owner'), c, 'cancel'), 409, 'APPROVAL-1000');
    const r = expectOk(await submit()).approval.id as string;
    expect(expectOk(await decide(as('outsider'), r, 'reject', 'Not for the store'))).toMatchObject({ state: 'rejected' });
    expect(await itemState()).toMatchObject({ reviewState: 'rejected', reviewReason: 'Not for the store' });
    const mine = expectOk(await h.call('GET', APPROVALS, { ...as('owner'), query: { box: 'mine' } }));
    expect(mine.items.map((a: { state: string }) => a.state)).toEqual(['rejected', 'canceled', 'forced_recall', 'canceled']);
    expectCode(await h.call('GET', APPROVALS, { ...as('owner'), query: { box: 'tenant' } }), 403, 'PERMISSION-1000');
    expect(expectOk(await h.call('GET', APPROVALS, { token: tenantAdmin, query: { box: 'tenant' } })).total).toBe(4);
  });
});

describe('a portal distribution', () => {
  let appId = '';
  let approval = '';

  it('changes nothing until agreed, then serves the submitted version; a forced recall cancels it', async () => {
    appId = await createApp(h, f.u.owner.token, f.wsA, 'Echo', echoFlow('says {{ word }}'));
    const v1 = await publishVersion(h, ownerWs(), appId, 'v1');
    const list: DistributionList = await distribute(h, ownerWs(), appId, 'portal', v1.id);
    const portal = platformOf(list, 'portal');
    expect(portal).toMatchObject({ state: 'not_distributed', approval: { state: 'processing', version: 'v1' } });
    approval = portal.approval!.id;
    expectCode(await h.call('POST', DIST(appId), { ...ownerWs(), body: { platform: 'portal', version_id: v1.id } }), 409, 'APPROVAL-1003');
    expect(await h.studio.ctx.db.select().from(appDistributions).where(eq(appDistributions.appId, appId))).toEqual([]);
    expectCode(await decide(as('owner'), approval, 'agree'), 403, 'APPROVAL-1002');
    expectOk(await decide(as('outsider'), approval, 'agree'));
    const after = platformOf(expectOk(await h.call('GET', DIST(appId), ownerWs())), 'portal');
    expect(after).toMatchObject({ state: 'distributed', distribution: { version: { id: v1.id }, distributed_by: f.u.owner.id }, approval: { state: 'agreed' } });
    expectCode(await decide(as('owner'), approval, 'recall'), 409, 'APPROVAL-1004');
    expectOk(await h.call('POST', `/api/v1/admin/approval/${approval}/force-recall`, { token: tenantAdmin, body: {} }));
    const [row] = await h.studio.ctx.db.select().from(appDistributions).where(eq(appDistributions.appId, appId));
    expect(row).toMatchObject({ state: 'cancelled', cancelledBy: tenantAdminId });
  });

  it('is canceled by its submitter or rejected by an approver, the app staying off the portal', async () => {
    const again = async () => platformOf(await distribute(h, ownerWs(), appId, 'portal'), 'portal');
    const first = await again();
    // The forced recall left the distribution cancelled: it stays so while the new request waits.
    expect(first).toMatchObject({ state: 'cancelled', approval: { state: 'processing' } });
    expectCode(await decide(as('outsider'), first.approval!.id, 'cancel'), 403, 'PERMISSION-1000');
    expect(expectOk(await decide(as('owner'), first.approval!.id, 'cancel'))).toMatchObject({ state: 'canceled' });
    const second = await again();
    expect(second.approval!.id).not.toBe(first.approval!.id);
    expect(expectOk(await decide(as('member'), second.approval!.id, 'reject', 'Not for everyone'))).toMatchObject({ state: 'rejected', last_comment: 'Not for everyone' });
    expect(platformOf(expectOk(await h.call('GET', DIST(appId), ownerWs())), 'portal')).toMatchObject({ state: 'cancelled', approval: { state: 'rejected' } });
    const [row] = await h.studio.ctx.db.select().from(appDistributions).where(eq(appDistributions.appId, appId));
    expect(row).toMatchObject({ state: 'cancelled' });
  });
});

describe('without the setting', () => {
  it('submits and distributes as before, with no approval rows', async () => {
    expectOk(await h.call('PUT', SETTINGS, { token: tenantAdmin, body: { store: false, portal: false, approvers: [] } }));
    const before = (await h.studio.ctx.db.select().from(approvals)).length;
    expect(expectOk(await submit())).toMatchObject({ review_state: 'awaiting_release' });
    const appId = await createApp(h, f.u.owner.token, f.wsA, 'Echo two', echoFlow('says {{ word }}'));
    await publishVersion(h, ownerWs(), appId, 'v1');
    expect(platformOf(await distribute(h, ownerWs(), appId, 'portal'), 'portal').state).toBe('distributed');
    expect((await h.studio.ctx.db.select().from(approvals)).length).toBe(before);
  });
});
