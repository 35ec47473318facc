/** Word 2007+ (.docx) through mammoth: raw text, paragraphs separated by blank lines. */
import mammoth from 'mammoth';

export async function parseDocx(bytes: Uint8Array): Promise<string> {
  try {
    const r = await mammoth.extractRawText({ buffer: Buffer.from(bytes) });
    return r.value.replace(/\n{3,}/g, '\n\n').trim();
  } catch (e) {
    throw new Error(`The file is not a readable Word (.docx) document (${(e as Error).message})`);
  }
}
