import type { AnyNodePlugin } from '../src/plugin-sdk';
import { agentPlugin } from './agent/manifest';
import { answerPlugin } from './answer/manifest';
import { codePlugin } from './code/manifest';
import { endPlugin } from './end/manifest';
import { httpRequestPlugin } from './http-request/manifest';
import { ifElsePlugin } from './if-else/manifest';
import { iterationStartPlugin } from './iteration-start/manifest';
import { iterationPlugin } from './iteration/manifest';
import { knowledgeRetrievalPlugin } from './knowledge-retrieval/manifest';
import { llmPlugin } from './llm/manifest';
import { loopStartPlugin } from './loop-start/manifest';
import { loopPlugin } from './loop/manifest';
import { mcpPlugin } from './mcp/manifest';
import { notePlugin } from './note/manifest';
import { parameterExtractorPlugin } from './parameter-extractor/manifest';
import { questionClassifierPlugin } from './question-classifier/manifest';
import { startPlugin } from './start/manifest';
import { templateTransformPlugin } from './template-transform/manifest';
import { toolPlugin } from './tool/manifest';
import { variableAggregatorPlugin } from './variable-aggregator/manifest';
import { variableAssignerPlugin } from './variable-assigner/manifest';

/**
 * The built-in node kinds, manifests only (no React): what the server and the engine register
 * (`createNodeRegistry(runtimePlugins)`). The order is the palette's within each category.
 * `plugins/index.ts` is the same list with the editor views attached; keep the two in step.
 */
export const runtimePlugins: readonly AnyNodePlugin[] = Object.freeze([
  startPlugin,
  endPlugin,
  answerPlugin,
  llmPlugin,
  agentPlugin,
  questionClassifierPlugin,
  parameterExtractorPlugin,
  knowledgeRetrievalPlugin,
  ifElsePlugin,
  iterationPlugin,
  iterationStartPlugin,
  loopPlugin,
  loopStartPlugin,
  codePlugin,
  templateTransformPlugin,
  variableAggregatorPlugin,
  variableAssignerPlugin,
  toolPlugin,
  mcpPlugin,
  httpRequestPlugin,
  notePlugin,
] as AnyNodePlugin[]);
