/**
 * The answers of the portal's calls (./portal.ts), as zod schemas. Loaded with the first call, not
 * with the portal's pages: zod and the schemas stay out of the portal's first load (issue 21).
 */
import { z } from 'zod';
import { ConversationGroup, PortalApp, PortalAppDetail, SuggestedQuestions, UsageRecord, WebConversation, WebMessagePage, WebRun, webPage } from '../../schemas/portal';
import { RunStopResult } from '../../schemas/run-api';

export const portalAnswers = {
  apps: webPage(PortalApp),
  app: PortalAppDetail,
  stop: RunStopResult,
  runs: webPage(WebRun),
  run: WebRun,
  conversations: webPage(WebConversation),
  conversation: WebConversation,
  none: z.unknown(),
  messages: WebMessagePage,
  suggested: SuggestedQuestions,
  groups: z.array(ConversationGroup),
  group: ConversationGroup,
  usage: webPage(UsageRecord),
};
