/**
 * What the app list and the editors need to know about the four app modes (spec 9): which editor opens
 * an app (spec 2 "App editors") and how a mode looks. Pure; no React.
 */
import type { App, AppIcon, AppType } from '../../../../schemas/app';
import { ICON_COLORS } from '../../../kit/widgets/icon-presets';
import type { BadgeVariant } from '../../../ui/badge';

/**
 * The modes in the order the create dialog offers them: schemas/flow.ts FLOW_MODES, written out
 * (that module builds zod schemas, not in the portal's first load; app-modes.test.ts checks they match).
 */
export const APP_MODES: readonly AppType[] = ['agent', 'chatflow', 'workflow', 'agent_team'];

/** The editor route of a mode: agent_team has its own editor, the other modes use the flow editor. */
export type AppEditorKind = 'agent-flow' | 'agent-team';

export const editorKindOf = (type: AppType): AppEditorKind => (type === 'agent_team' ? 'agent-team' : 'agent-flow');

/**
 * Where opening an app goes: `/operation/app/:appId/agent-flow` (workflow, chatflow),
 * `/operation/app/:appId/agent-team` (agent_team), and for an agent the zero-code builder
 * `/operation/app/:appId/agent-builder`, which opens the canvas (agent-flow) itself when the flow
 * is not a zero-code agent (schemas/agent-builder.ts zeroCodeNodes). A broadcast digital human (issue 31)
 * opens its digital-human page: its videos are its content, not its flow.
 * @example editorPath({ id: 'a1', type: 'chatflow' }) // '/operation/app/a1/agent-flow'
 */
export const editorPath = (app: Pick<App, 'id' | 'type'> & { digital_human?: App['digital_human'] }) =>
  `/operation/app/${encodeURIComponent(app.id)}/${app.digital_human === 'broadcast' ? 'digital-human' : app.type === 'agent' ? 'agent-builder' : editorKindOf(app.type)}`;

/** The badge colour of each mode (the same in the list and the editor header). */
export const MODE_BADGE: Readonly<Record<AppType, BadgeVariant>> = {
  agent: 'primary',
  chatflow: 'info',
  workflow: 'success',
  agent_team: 'warning',
};

/** Spec 5 and schemas/app.ts: name at most 50 characters, description at most 500 (both trimmed, required). */
export const APP_NAME_MAX = 50;
export const APP_DESCRIPTION_MAX = 500;

const colour = (id: (typeof ICON_COLORS)[number]['id']) => ICON_COLORS.find((c) => c.id === id)!.background;

/** The icon a new app of each mode starts with until the user picks one (so a list of apps is not all alike). */
export const MODE_DEFAULT_ICON: Readonly<Record<AppType, AppIcon>> = {
  agent: { icon: 'bot', iconColor: colour('indigo') },
  chatflow: { icon: 'message-square', iconColor: colour('blue') },
  workflow: { icon: 'workflow', iconColor: colour('green') },
  agent_team: { icon: 'sparkles', iconColor: colour('amber') },
};
