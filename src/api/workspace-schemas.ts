/**
 * The answers of the project-space calls (./workspaces.ts), as zod schemas. Loaded with the first
 * call, not with the console's layout and home: zod and the schemas stay out of the console home's
 * first load (issue 28), as ./portal-schemas.ts keeps them out of the portal's.
 */
import { z } from 'zod';
import { page } from '../../schemas/common';
import { Member, Workspace } from '../../schemas/workspace';

export const workspaceAnswers = {
  workspaces: page(Workspace),
  workspace: Workspace,
  none: z.null(),
  members: page(Member),
  memberList: z.array(Member),
  member: Member,
};
