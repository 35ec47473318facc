import type { FileTextService } from '../../plugin-sdk/executor';
import type { ServerContext } from '../context';
import { parseFile } from '../knowledge/parse';
import { fileBytes, readableFile } from '../services/files';

/** Longest text one file gives a run (a large PDF must not fill the variable pool). */
export const MAX_FILE_TEXT_CHARS = 1_000_000;

/**
 * The document extractor's file reader for one run: the file as the run's user may read it
 * (readableFile: own uploads, the workspace's files, files sent in their conversations), its text
 * from the knowledge parsers (pdf, doc, docx, txt, md; tables as tab-separated rows).
 */
export function createFileTextService(ctx: ServerContext, who: { tenantId: string; userId: string }): FileTextService {
  return {
    async text(file) {
      const f = (file && typeof file === 'object' ? file : {}) as { file_id?: unknown; id?: unknown; name?: unknown };
      const id = typeof f.file_id === 'string' ? f.file_id : typeof f.id === 'string' ? f.id : '';
      if (!id) throw new Error('The value is not a file');
      let row;
      try {
        row = await readableFile(ctx, who, id);
      } catch {
        throw new Error(`The file ${id} does not exist or this run may not read it`);
      }
      const doc = await parseFile({ bytes: await fileBytes(ctx, row), name: row.name });
      const text = doc.kind === 'text' ? doc.text : doc.sheets.map((s) => [s.headers, ...s.rows].map((r) => r.join('\t')).join('\n')).join('\n\n');
      return text.slice(0, MAX_FILE_TEXT_CHARS);
    },
  };
}
