/**
 * An in-memory {@link FlowImportApi} for tests and stories, with the server's rules for
 * POST /apps/{app_id}/import (src/server/services/apps-import.ts importIntoApp): the same importer
 * against the editor's kinds, a file of another mode refused with APP-1001, any other unreadable
 * file with VALIDATION-1000 and the importer's errors in `data.errors`, nothing stored on a refusal.
 * `reload` puts the stored draft in the store as autosave's reload does (`replaceDocument`).
 *
 * @example
 * const importer = createMemoryFlowImport(store);
 * <FlowEditor store={store} importer={importer} />
 */
import type { ImportReport } from '../../../schemas/app-import';
import { ErrorCode } from '../../../schemas/errors';
import type { FlowDocument } from '../../../schemas/flow';
import { ApiError } from '../../api/request';
import { detectFlowFormat, importFlowFile, parseYamlObject } from '../dsl';
import type { FlowStore } from '../store/create-flow-store';
import type { FlowImportApi } from './flow-files';

export interface MemoryFlowImport extends FlowImportApi {
  /** The draft the last accepted import stored. */
  stored: FlowDocument | undefined;
  calls: string[];
}

export function createMemoryFlowImport(store: FlowStore): MemoryFlowImport {
  const api: MemoryFlowImport = {
    stored: undefined,
    calls: [],
    async importFile(content): Promise<ImportReport> {
      api.calls.push('importFile');
      const mode = store.getState().document.mode;
      const r = importFlowFile(content, store.registry, { mode });
      if (!r.ok) {
        const mismatch = r.errors.find((e) => e.key === 'errors.modeMismatch');
        if (mismatch) throw new ApiError({ status: 400, code: ErrorCode.IMPORT_MODE_MISMATCH, msg: 'Mode mismatch', data: { mode: String(mismatch.params?.mode ?? ''), expected: mode } });
        throw new ApiError({ status: 400, code: ErrorCode.PARAM, msg: 'The file cannot be imported', data: { errors: r.errors } });
      }
      api.stored = r.document;
      const yaml = parseYamlObject(content);
      return { format: yaml.ok && detectFlowFormat(yaml.value) === 'weft' ? 'weft' : 'dify', mapped: r.document.nodes.length, unmapped: r.unmapped, warnings: r.warnings };
    },
    async reload() {
      api.calls.push('reload');
      if (api.stored) store.replaceDocument(api.stored);
    },
  };
  return api;
}
