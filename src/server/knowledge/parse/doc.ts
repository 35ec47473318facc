/** Word 97-2003 (.doc, OLE2 compound file) through word-extractor: body, then footnotes and endnotes. */
import WordExtractor from 'word-extractor';

export async function parseDoc(bytes: Uint8Array): Promise<string> {
  try {
    const doc = await new WordExtractor().extract(Buffer.from(bytes));
    const parts = [doc.getBody(), doc.getFootnotes(), doc.getEndnotes()].map((s) => s.trim()).filter(Boolean);
    return parts.join('\n\n').replace(/\r\n?/g, '\n');
  } catch (e) {
    throw new Error(`The file is not a readable Word (.doc) document (${(e as Error).message})`);
  }
}
