import { createExecutorRegistry, type AnyNodeExecutor, type ExecutorRegistry } from '../src/plugin-sdk';
import { agentExecutor } from './agent/executor';
import { answerExecutor } from './answer/executor';
import { codeExecutor } from './code/executor';
import { endExecutor } from './end/executor';
import { httpRequestExecutor } from './http-request/executor';
import { ifElseExecutor } from './if-else/executor';
import { iterationExecutor } from './iteration/executor';
import { knowledgeRetrievalExecutor } from './knowledge-retrieval/executor';
import { llmExecutor } from './llm/executor';
import { loopExecutor } from './loop/executor';
import { mcpExecutor } from './mcp/executor';
import { parameterExtractorExecutor } from './parameter-extractor/executor';
import { questionClassifierExecutor } from './question-classifier/executor';
import { startExecutor } from './start/executor';
import { templateTransformExecutor } from './template-transform/executor';
import { toolExecutor } from './tool/executor';
import { variableAggregatorExecutor } from './variable-aggregator/executor';
import { variableAssignerExecutor } from './variable-assigner/executor';

/**
 * The executors of the built-in node kinds, for the server (and tests): compile flows with
 * `{ nodes: createNodeRegistry(runtimePlugins), executors: runtimeExecutors }`. Container start
 * kinds (iteration-start, loop-start) need none (the engine runs them as no-ops) and notes never
 * run (category `annotation`). A kind outside the list: `runtimeExecutors.extend([myExecutor])`.
 */
export const builtinExecutors: readonly AnyNodeExecutor[] = Object.freeze([
  startExecutor,
  endExecutor,
  answerExecutor,
  llmExecutor,
  agentExecutor,
  questionClassifierExecutor,
  parameterExtractorExecutor,
  knowledgeRetrievalExecutor,
  ifElseExecutor,
  iterationExecutor,
  loopExecutor,
  codeExecutor,
  templateTransformExecutor,
  variableAggregatorExecutor,
  variableAssignerExecutor,
  toolExecutor,
  mcpExecutor,
  httpRequestExecutor,
] as unknown as AnyNodeExecutor[]);

export const runtimeExecutors: ExecutorRegistry = createExecutorRegistry(builtinExecutors);
