import { z } from 'zod';
import { App } from './app';

/** Longest flow file the import takes (characters): the editor's limit, 4 × the 5 MB flow limit. */
export const IMPORT_MAX_CHARS = 20 * 1024 * 1024;

/**
 * Create an app from a flow file (spec: not shown; Dify's "Import DSL"): a Dify DSL file
 * (workflow, advanced-chat) or one exported here. As JSON `{ content, name?, description? }`, or
 * multipart with the file in `file` and the same fields. The name and description default to the
 * file's; the app's type is the file's mode.
 */
export const AppImportBody = z
  .object({
    content: z.string().min(1).max(IMPORT_MAX_CHARS),
    name: z.string().trim().min(1).max(50).optional(),
    description: z.string().trim().min(1).max(500).optional(),
  })
  .strict();
export type AppImportBody = z.infer<typeof AppImportBody>;

/** One message of the import (an i18n key of the `dsl` namespace with its parameters). */
export const ImportMessage = z.object({ key: z.string(), params: z.record(z.string(), z.union([z.string(), z.number()])).optional() });
export type ImportMessage = z.infer<typeof ImportMessage>;

/** What the import made of the file: the same report as the editor's import dialog. */
export const ImportReport = z.object({
  format: z.enum(['weft', 'dify']),
  /** Nodes in the new app's flow. */
  mapped: z.number().int(),
  /** Nodes of the file that were left out, with their connections. */
  unmapped: z.array(z.object({ id: z.string(), type: z.string(), title: z.string() })),
  warnings: z.array(ImportMessage),
});
export type ImportReport = z.infer<typeof ImportReport>;

export const AppImportResult = z.object({ app: App, report: ImportReport });
export type AppImportResult = z.infer<typeof AppImportResult>;
