/**
 * What import and export tell the builder: i18n keys in the `dsl` namespace (never strings), with
 * params. The lists below are every key the code can produce; a test checks each has zh and en text.
 */

export const DSL_ERROR_KEYS = [
  'yamlInvalid',
  'notAnObject',
  'tooLarge',
  'formatUnknown',
  'difyFile',
  'weftFile',
  'versionUnsupported',
  'modeUnsupported',
  'modeMismatch',
  'graphMissing',
  'documentInvalid',
  'kindUnknown',
  'versionTooNew',
  'migrationFailed',
  'flowTooLarge',
] as const;
export type DslErrorKey = (typeof DSL_ERROR_KEYS)[number];

export const DSL_WARNING_KEYS = [
  'edgesDropped',
  'edgeHandleUnknown',
  'fieldDropped',
  'idChanged',
  'codeLanguage',
  'jinjaPrompt',
  'sysVariableUnknown',
  'toolNeedsSetup',
  'fileConditionDropped',
  'fileConditionOperator',
  'conversationVariablesDropped',
  'variableDropped',
  'startFieldType',
  'retrievalSingle',
  'metadataAutomatic',
  'rerankWeighted',
  'insideUnmapped',
  'visionFilesAssumed',
  'knowledgeBaseToPick',
  'agentStrategy',
  'fileCut',
] as const;
export type DslWarningKey = (typeof DSL_WARNING_KEYS)[number];

/** One message: `t(\`dsl:${kind}s.${key}\`, params)` (e.g. `dsl:errors.yamlInvalid`). */
export interface DslMessage<K extends string = string> {
  key: K;
  params?: Record<string, string | number>;
}
export type DslError = DslMessage<`errors.${DslErrorKey}`>;
export type DslWarning = DslMessage<`warnings.${DslWarningKey}`>;

export const dslError = (key: DslErrorKey, params?: DslMessage['params']): DslError => ({ key: `errors.${key}`, ...(params ? { params } : {}) });
export const dslWarning = (key: DslWarningKey, params?: DslMessage['params']): DslWarning => ({ key: `warnings.${key}`, ...(params ? { params } : {}) });

/** At most this many warnings of one kind are listed (a huge file should not bury the dialog). */
export const MAX_WARNINGS = 200;
