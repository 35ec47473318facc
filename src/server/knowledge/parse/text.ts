/**
 * Plain text and Markdown: UTF-8 (BOM stripped), UTF-16 with a BOM, and GB18030/GBK when the bytes
 * are not valid UTF-8 (common for Chinese .txt files saved on Windows).
 */

/** Decodes text bytes, guessing the encoding from the BOM and UTF-8 validity. */
export function decodeText(bytes: Uint8Array): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder('utf-8').decode(bytes.subarray(3));
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // Not UTF-8: GB18030 is a superset of GBK/GB2312; Node's full ICU decodes it. Without it, fall
    // back to lenient UTF-8 (replacement characters) rather than failing the file.
    try {
      return new TextDecoder('gb18030').decode(bytes);
    } catch {
      return new TextDecoder('utf-8').decode(bytes);
    }
  }
}

export function parseText(bytes: Uint8Array): string {
  return decodeText(bytes).replace(/\r\n?/g, '\n');
}
