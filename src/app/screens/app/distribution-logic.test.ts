import { describe, expect, it } from 'vitest';
import { actionsOf, embedSnippet, portalPath, reasonOf } from './distribution-logic';

describe('distribution cards', () => {
  it('offers distribute until distributed, then move and cancel; each disabled by what the server says blocks it', () => {
    expect(actionsOf({ state: 'not_distributed', blocked: null })).toEqual({
      distribute: { shown: true, disabledBy: null },
      move: { shown: false, disabledBy: null },
      cancel: { shown: false, disabledBy: null },
    });
    expect(actionsOf({ state: 'cancelled', blocked: 'no_version' }).distribute).toEqual({ shown: true, disabledBy: 'no_version' });
    const inactive = actionsOf({ state: 'distributed', blocked: 'inactive' });
    expect([inactive.distribute.shown, inactive.move.disabledBy, inactive.cancel.disabledBy]).toEqual([false, 'inactive', null]);
    const admin = actionsOf({ state: 'distributed', blocked: 'not_owner' });
    expect([admin.move.disabledBy, admin.cancel.disabledBy]).toEqual(['not_owner', 'not_owner']);
    expect(reasonOf(admin)).toBe('not_owner');
    expect(reasonOf(inactive)).toBe('inactive');
    expect(reasonOf(actionsOf({ state: 'distributed', blocked: null }))).toBeNull();
  });

  it('links chat apps to the portal chat and workflows to their run page; the snippet embeds the bare chat', () => {
    expect(portalPath({ id: 'a 1', type: 'agent_team' })).toBe('/portal/sessions/chat/a%201');
    expect(portalPath({ id: 'a1', type: 'workflow' })).toBe('/portal/sessions/workflow/a1');
    expect(embedSnippet('http://127.0.0.1:3000', 'a1')).toMatch(/^<iframe src="http:\/\/127\.0\.0\.1:3000\/portal\/chat\/a1" [^>]*><\/iframe>$/);
  });
});
