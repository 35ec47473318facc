import { defineNodeExecutor, NodeExecutionError } from '../../src/plugin-sdk';
import { documentExtractorPlugin } from './manifest';

export const DOCUMENT_ERRORS = {
  NO_SERVICE: 'DOCUMENT-NO-FILE-SERVICE',
  NOT_A_FILE: 'DOCUMENT-NOT-A-FILE',
  READ_FAILED: 'DOCUMENT-READ-FAILED',
} as const;

/** The text of one file, or of each file of a list (in order), through the server's file reader. */
export const documentExtractorExecutor = defineNodeExecutor(documentExtractorPlugin, {
  async execute({ config, variables, services, signal }) {
    const files = services.files;
    if (!files) throw new NodeExecutionError(DOCUMENT_ERRORS.NO_SERVICE, 'This server cannot read files in runs');
    const value = variables.get(config.variable);
    if (value === undefined || value === null || (typeof value !== 'object' && !Array.isArray(value))) {
      throw new NodeExecutionError(DOCUMENT_ERRORS.NOT_A_FILE, `The variable ${config.variable.join('.')} holds no file`);
    }
    const read = async (file: unknown) => {
      try {
        return await files.text(file, { signal });
      } catch (e) {
        throw new NodeExecutionError(DOCUMENT_ERRORS.READ_FAILED, e instanceof Error ? e.message : String(e));
      }
    };
    if (!Array.isArray(value)) return { outputs: { text: await read(value) } };
    const texts: string[] = [];
    for (const f of value) texts.push(await read(f));
    return { outputs: { text: texts } };
  },
});

export default documentExtractorExecutor;
