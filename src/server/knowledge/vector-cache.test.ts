import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cosine, embedBuiltin } from './embed-builtin';
import { quantise, scanNearest } from './vector-cache';

const cos = (a: ArrayLike<number>, b: ArrayLike<number>) => cosine(Array.from(a), Array.from(b));

let seed = 11;
const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 0x1_0000_0000;

describe('vector-cache scan', () => {
  it('finds the exact nearest rows of dense, unnormalised vectors across units, best first, scores within the int8 rounding', () => {
    const dim = 64;
    const make = (n: number) => Array.from({ length: n }, () => Array.from({ length: dim }, () => (rnd() - 0.5) * (1 + rnd() * 9)));
    const rowsA = make(300);
    const rowsB = make(200);
    const idsA = rowsA.map(() => randomUUID());
    const idsB = rowsB.map(() => randomUUID());
    const units = [quantise(1, dim, idsA, rowsA), quantise(1, dim, idsB, rowsB)];
    for (let t = 0; t < 20; t++) {
      const q = Array.from({ length: dim }, () => rnd() - 0.5);
      const exact = [...rowsA.map((v, i) => ({ id: idsA[i]!, s: cos(q, v) })), ...rowsB.map((v, i) => ({ id: idsB[i]!, s: cos(q, v) }))].sort((a, b) => b.s - a.s);
      const got = scanNearest(units, q, 10);
      expect(got).toHaveLength(10);
      expect(got.map((x) => x.score)).toEqual([...got.map((x) => x.score)].sort((a, b) => b - a));
      // Every hit's score is its cosine to within the rounding; the true best 3 are all found.
      const byId = new Map<string, number>(exact.map((x) => [x.id, x.s]));
      for (const x of got) expect(Math.abs(x.score - byId.get(x.id)!)).toBeLessThan(0.02);
      for (const best of exact.slice(0, 3)) expect(got.map((x) => x.id)).toContain(best.id);
    }
  });

  it('reads only the sparse query\'s dimensions and still ranks the built-in embedding\'s rows like the exact cosine', () => {
    const texts = Array.from({ length: 400 }, (_, i) => `row ${i} ${['password reset', 'revenue europe', 'lunch noon', '订单退货', 'shipping days'][i % 5]} ${Math.floor(rnd() * 1000)}`);
    const vectors = embedBuiltin(texts);
    const ids = texts.map(() => randomUUID());
    const unit = quantise(3, 256, ids, vectors);
    const [q] = embedBuiltin(['how do I reset my password']);
    const exact = vectors.map((v, i) => ({ id: ids[i]!, s: cos(q!, v) })).sort((a, b) => b.s - a.s);
    const got = scanNearest([unit], q!, 20);
    const kth = exact[3]!.s - 0.01;
    expect(got.slice(0, 4).every((x) => exact.find((e) => e.id === x.id)!.s >= kth)).toBe(true);
    expect(unit.bytes).toBe(400 * (256 + 20));
  });

  it('answers nothing for a zero query, skips units of another dimension, and scores zero rows 0', () => {
    const ids = [randomUUID(), randomUUID()];
    const unit = quantise(1, 3, ids, [
      [0, 0, 0],
      [1, 0, 0],
    ]);
    expect(scanNearest([unit], [0, 0, 0], 5)).toEqual([]);
    expect(scanNearest([unit], [1, 0, 0, 0], 5)).toEqual([]);
    const got = scanNearest([unit], [1, 0, 0], 5);
    expect(got.map((x) => x.id)).toEqual([ids[1], ids[0]]);
    expect(got[0]!.score).toBeCloseTo(1, 6);
    expect(got[1]!.score).toBe(0);
  });
});
