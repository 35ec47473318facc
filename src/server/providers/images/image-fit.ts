import { decodeJpeg, isJpeg } from './jpeg';
import { decodePng, encodePng, isPng } from './png';
import { fitSize, shrink } from './raster';

/**
 * What an image is sent to a vision model as, by the app's image mode (spec 9): `low` fits it in
 * 512×512 (65 tokens at OpenAI's rate), `high` keeps it (the provider adds 512-pixel crops, 129
 * tokens in all for one crop). Only `low` changes the bytes.
 */

export type ImageDetail = 'low' | 'high';

/** The box a low-detail image fits in (spec 9: low resolution 512×512). */
export const LOW_DETAIL_BOX = 512;

/** Images larger than this are not decoded (memory): they go as they are, with `detail: 'low'`. */
const MAX_DECODE_PIXELS = 40_000_000;

export interface ModelImage {
  data: Uint8Array;
  mediaType: string;
  detail: ImageDetail;
}

/** The image's pixels when it is a PNG or baseline JPEG this server decodes; null otherwise. */
function decode(bytes: Uint8Array) {
  if (isPng(bytes)) return decodePng(bytes, MAX_DECODE_PIXELS);
  if (isJpeg(bytes)) return decodeJpeg(bytes, MAX_DECODE_PIXELS);
  return null;
}

/**
 * The image as it goes to the model. Low detail: shrunk to fit {@link LOW_DETAIL_BOX} (as a PNG)
 * when it is larger; an image the server cannot decode (GIF, WebP, progressive JPEG) goes as it is,
 * the provider's own `detail: 'low'` doing the shrinking. High detail: as it is.
 * @example imageForModel(pngBytes, 'image/png', 'low') // { data: <≤512×512 PNG>, mediaType: 'image/png', detail: 'low' }
 */
export function imageForModel(bytes: Uint8Array, mediaType: string, detail: ImageDetail): ModelImage {
  if (detail === 'high') return { data: bytes, mediaType, detail };
  const img = decode(bytes);
  if (!img || (img.width <= LOW_DETAIL_BOX && img.height <= LOW_DETAIL_BOX)) return { data: bytes, mediaType, detail };
  const size = fitSize(img.width, img.height, LOW_DETAIL_BOX);
  return { data: encodePng(shrink(img, size.width, size.height)), mediaType: 'image/png', detail };
}
