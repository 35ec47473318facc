import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { imageForModel, LOW_DETAIL_BOX } from './image-fit';
import { decodeJpeg } from './jpeg';
import { decodePng, encodePng, pngSize } from './png';
import { fitSize, shrink, type Rgba } from './raster';

/** A test picture: a colour gradient with a white square in the top-left quarter. */
function picture(width: number, height: number, alpha = 255): Rgba {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      const white = x < width / 4 && y < height / 4;
      data[o] = white ? 255 : Math.round((x / width) * 255);
      data[o + 1] = white ? 255 : Math.round((y / height) * 255);
      data[o + 2] = white ? 255 : 64;
      data[o + 3] = alpha;
    }
  }
  return { width, height, data };
}

const pixel = (img: Rgba, x: number, y: number) => [...img.data.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 4)];
const JPEG = fs.readFileSync(path.join(import.meta.dirname, '../../../../tests/fixtures/photo-1000x750.jpg'));

describe('images for vision models', () => {
  it('round-trips RGBA and RGB through its PNG codec', () => {
    const opaque = picture(37, 21);
    expect(decodePng(encodePng(opaque), 1e6)).toEqual(opaque);
    const translucent = picture(16, 9, 128);
    expect(decodePng(encodePng(translucent), 1e6)).toEqual(translucent);
    expect(pngSize(encodePng(opaque))).toEqual({ width: 37, height: 21 });
  });

  it('fits sizes in the box without enlarging', () => {
    expect(fitSize(1024, 768, 512)).toEqual({ width: 512, height: 384 });
    expect(fitSize(300, 2000, 512)).toEqual({ width: 77, height: 512 });
    expect(fitSize(200, 100, 512)).toEqual({ width: 200, height: 100 });
  });

  it('averages the pixels it shrinks', () => {
    const small = shrink(picture(100, 100), 10, 10);
    expect(pixel(small, 0, 0)).toEqual([255, 255, 255, 255]);
    expect(pixel(small, 9, 9)[2]).toBe(64);
  });

  it('decodes a baseline JPEG (Chromium’s, 4:2:0) to its size and colours', () => {
    const img = decodeJpeg(JPEG, 1e8)!;
    expect([img.width, img.height]).toEqual([1000, 750]);
    // Inside the white rectangle, and inside the green circle (JPEG is lossy: near, not equal).
    const near = (got: number[], want: number[]) => got.slice(0, 3).forEach((v, i) => expect(Math.abs(v - want[i])).toBeLessThan(12));
    near(pixel(img, 250, 200), [255, 255, 255]);
    near(pixel(img, 700, 450), [16, 160, 16]);
  });

  it('low: shrinks a large PNG or JPEG to fit 512×512 as a PNG; small ones and high detail go as they are', () => {
    const big = encodePng(picture(1024, 768));
    const low = imageForModel(big, 'image/png', 'low');
    expect(low.mediaType).toBe('image/png');
    expect(pngSize(low.data)).toEqual({ width: LOW_DETAIL_BOX, height: 384 });
    const photo = imageForModel(JPEG, 'image/jpeg', 'low');
    expect(photo.mediaType).toBe('image/png');
    expect(pngSize(photo.data)).toEqual({ width: 512, height: 384 });

    const small = encodePng(picture(300, 200));
    expect(imageForModel(small, 'image/png', 'low').data).toBe(small);
    expect(imageForModel(big, 'image/png', 'high')).toEqual({ data: big, mediaType: 'image/png', detail: 'high' });
    // Not decodable here (a GIF): as it is; the provider's low detail shrinks it.
    const gif = Buffer.from('GIF89a....');
    expect(imageForModel(gif, 'image/gif', 'low')).toEqual({ data: gif, mediaType: 'image/gif', detail: 'low' });
  });
});
