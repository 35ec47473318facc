/** PDF text through unpdf (a serverless build of pdf.js): pages joined by blank lines. */
import { extractText, getDocumentProxy } from 'unpdf';

export async function parsePdf(bytes: Uint8Array): Promise<{ text: string; title?: string }> {
  let doc;
  try {
    // pdf.js takes ownership of (detaches) the buffer it is given: hand it a copy.
    doc = await getDocumentProxy(new Uint8Array(bytes));
  } catch (e) {
    const msg = (e as Error).message ?? '';
    if (/password/i.test(msg)) throw new Error('The PDF is password-protected and cannot be read');
    throw new Error(`The file is not a readable PDF (${msg})`);
  }
  try {
    const { text } = await extractText(doc, { mergePages: false });
    const meta = await doc.getMetadata().catch(() => null);
    const info = (meta?.info ?? {}) as { Title?: unknown };
    const title = typeof info.Title === 'string' && info.Title.trim() ? info.Title.trim() : undefined;
    return { text: text.map((p) => p.trim()).filter(Boolean).join('\n\n'), title };
  } finally {
    await doc.destroy();
  }
}
