/**
 * What the distribute tab decides about a platform's card, apart from React: which actions it
 * offers and why one is disabled (from the server's `blocked`), where a distributed app opens in the
 * portal, and the embedded chat's iframe snippet. Pure.
 */
import type { DistributionBlock, DistributionView } from '../../../../schemas/distribution';
import { isChatMode, type FlowMode } from '../../../../schemas/flow';

/** An action of a card: shown or not, and why it is disabled (null: it may be done). */
export interface CardAction {
  shown: boolean;
  disabledBy: DistributionBlock | null;
}

export interface CardActions {
  /** Distribute (again, after a cancel), choosing the version. */
  distribute: CardAction;
  /** Move the distribution to another published version. */
  move: CardAction;
  /** Cancel the distribution (with a confirmation). */
  cancel: CardAction;
}

/**
 * The actions of a card. Distributing is blocked by anything the server names; moving by the owner
 * rule and an inactive app (the server refuses both); cancelling only by the owner rule (an
 * inactive app may still be taken away from its users).
 * @example actionsOf({ state: 'distributed', blocked: 'inactive', … }).cancel // { shown: true, disabledBy: null }
 */
export function actionsOf(view: Pick<DistributionView, 'state' | 'blocked'>): CardActions {
  const distributed = view.state === 'distributed';
  const ownerOnly = view.blocked === 'not_owner' ? 'not_owner' : null;
  return {
    distribute: { shown: !distributed, disabledBy: view.blocked },
    move: { shown: distributed, disabledBy: view.blocked === 'not_owner' || view.blocked === 'inactive' ? view.blocked : null },
    cancel: { shown: distributed, disabledBy: ownerOnly },
  };
}

/** The reason a card explains beside its actions (the first disabled one's), or null. */
export function reasonOf(actions: CardActions): DistributionBlock | null {
  for (const a of [actions.distribute, actions.move, actions.cancel]) if (a.shown && a.disabledBy) return a.disabledBy;
  return null;
}

/** Whether the platform puts the app in end users' portal (then the card links to it). */
export const reachesPortal = (platform: DistributionView['platform']) => platform === 'portal' || platform === 'current_project';

/**
 * The app's page in the portal: a chat for chat apps, the run form for workflows.
 * @example portalPath({ id: 'a1', type: 'chatflow' }) // '/portal/sessions/chat/a1'
 */
export function portalPath(app: { id: string; type: FlowMode }): string {
  return `/portal/sessions/${isChatMode(app.type) ? 'chat' : 'workflow'}/${encodeURIComponent(app.id)}`;
}

/**
 * The HTML that embeds the app's chat (without the portal's chrome; the user signs in) in a page: the
 * one helper the api tab's embed section uses too, so both tabs give the same text.
 * @example embedSnippet('https://weft.example', 'a1') // '<iframe src="https://weft.example/portal/chat/a1" …></iframe>'
 */
export { iframeSnippet as embedSnippet } from './embed-snippets';
