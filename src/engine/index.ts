/**
 * The flow runtime (plain TypeScript: no React, no Fastify, no database; the server drives it).
 * `compile` checks a flow document against the node and executor registries and prepares a
 * reusable plan; `run` executes a plan and streams run events (schemas/run.ts).
 * Core never imports a node kind: plugins reach the engine through the registries.
 */
export { compile, type CompileIssue, type CompileOptions, type CompileResult, type EngineRegistries, type ExecutionPlan, type PlanNode, type PlanScope } from './compile';
export { run, DEFAULT_RUN_LIMITS, type RunExecution, type RunLimits, type RunOptions, type RunResult, type SystemInputs } from './run';
export { RUN_ERRORS, RunAbort, toRunError, type RunErrorCode } from './errors';
export { cleanWait, NodeTimer } from './node-timer';
export { stringify, VariablePool, type RootVariables } from './pool';
