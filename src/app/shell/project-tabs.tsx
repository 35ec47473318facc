import { BookOpen, Bot, Database, KeyRound, ScanFace, ScrollText, Users, Wrench, type LucideIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { NavTab, NavTabs } from '../../ui/tabs';
import s from './project-tabs.module.css';

/** The project-space navigation tabs (spec 2), in order, with their route segment. */
export const PROJECT_TABS = [
  { key: 'app', icon: Bot },
  { key: 'tool', icon: Wrench },
  { key: 'knowledge', icon: BookOpen },
  { key: 'database', icon: Database },
  { key: 'certificate', icon: KeyRound },
  { key: 'prompt', icon: ScrollText },
  // Digital-human characters (issue 31): a resource of the space that apps use, like prompts.
  { key: 'character', icon: ScanFace },
  { key: 'member', icon: Users },
] as const satisfies readonly { key: string; icon: LucideIcon }[];

export type ProjectTab = (typeof PROJECT_TABS)[number]['key'];

/**
 * The tab a workspace route belongs to, from the first segment after `workspace/:id/`
 * (`tool/42` → tool, `knowledge-unit-add` → knowledge, `prompt-add` → prompt).
 */
export function projectTabOf(segment: string | undefined): ProjectTab | null {
  if (!segment) return null;
  const exact = PROJECT_TABS.find((t) => t.key === segment);
  if (exact) return exact.key;
  if (segment.startsWith('knowledge')) return 'knowledge';
  if (segment.startsWith('prompt')) return 'prompt';
  return null;
}

/** Path of a tab of a workspace. */
export const projectTabPath = (workspaceId: string, tab: ProjectTab) => `/operation/workspace/${encodeURIComponent(workspaceId)}/${tab}`;

export interface ProjectTabsProps {
  workspaceId: string;
  active: ProjectTab | null;
}

/** Application · Tools · Knowledge Base · Database · Credential Management · Prompt Management · Characters · Member Management. */
export function ProjectTabs({ workspaceId, active }: ProjectTabsProps) {
  const { t } = useTranslation(['shell', 'common', 'auth']);
  return (
    <NavTabs aria-label={t('projectTabs.label')} className={s.tabs} data-testid="project-tabs">
      {PROJECT_TABS.map(({ key, icon: Icon }) => (
        <NavTab key={key} asChild active={active === key}>
          <Link to={projectTabPath(workspaceId, key)} data-testid={`project-tab-${key}`}>
            <Icon aria-hidden="true" />
            {t(`projectTabs.${key}`)}
          </Link>
        </NavTab>
      ))}
    </NavTabs>
  );
}
