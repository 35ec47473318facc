/** Dify's file types by extension (for values with no MIME type). */
const BY_EXTENSION = {
  image: ['jpg', 'jpeg', 'png', 'webp', 'gif', 'svg', 'bmp'],
  audio: ['mp3', 'm4a', 'wav', 'amr', 'mpga', 'ogg'],
  video: ['mp4', 'mov', 'mpeg', 'webm'],
};

/**
 * A file value's property by Dify's names (name, type, extension, mime_type, size, transfer_method,
 * url). Our file values carry `name` and `mime_type` (or a MIME `type`); Dify's file type (image,
 * document, audio, video) is read from the MIME type when the value does not say it.
 * @example fileProperty({ name: 'a.PNG', mime_type: 'image/png' }, 'extension') // '.png'
 */
export function fileProperty(item: unknown, key: string): unknown {
  if (!key) return item;
  if (!item || typeof item !== 'object') return undefined;
  const f = item as Record<string, unknown>;
  const name = typeof f.name === 'string' ? f.name : '';
  const mime = typeof f.mime_type === 'string' ? f.mime_type : typeof f.type === 'string' && f.type.includes('/') ? f.type : '';
  switch (key) {
    case 'extension':
      return /\.([^./\\]+)$/.exec(name)?.[0]?.toLowerCase() ?? '';
    case 'mime_type':
      return mime;
    case 'type': {
      if (typeof f.type === 'string' && !f.type.includes('/')) return f.type;
      if (mime) return mime.startsWith('image/') ? 'image' : mime.startsWith('audio/') ? 'audio' : mime.startsWith('video/') ? 'video' : 'document';
      // No MIME type (a file value a client wrote by hand): Dify's file type by extension.
      const ext = /\.([^./\\]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';
      return (Object.keys(BY_EXTENSION) as (keyof typeof BY_EXTENSION)[]).find((k) => BY_EXTENSION[k].includes(ext)) ?? 'document';
    }
    default:
      return f[key];
  }
}
