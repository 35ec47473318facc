import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { embedBuiltin } from './embed-builtin';
import { copyBinary, prepareBatch, tsvOf, vectorOf, type CopyRow } from './prepare';
import { prepareOffThread } from './prepare-pool';
import { searchTokens } from './tokenize';

const TEXTS = ['Weft keeps knowledge in bases.', '知识库把文档切成分段，再向量化以便检索。', 'repeat repeat repeat 42', ''];

describe('prepare', () => {
  it('gives the tokens, a tsvector per text and the built-in vectors', () => {
    const p = prepareBatch(TEXTS, true);
    expect(p.tokens).toEqual(TEXTS.map(searchTokens));
    const want = embedBuiltin(TEXTS);
    TEXTS.forEach((_, k) => expect(Array.from(vectorOf(p, k))).toEqual(want[k]!.map((x) => Math.fround(x))));
    // 'repeat' three times: one lexeme with positions 1, 2, 3; then '42' at 4.
    const tsv = Buffer.from(tsvOf(p, 2));
    expect(tsv.readInt32BE(0)).toBe(2);
    expect(tsv.subarray(4, 7).toString()).toBe('42\0'.slice(0, 3));
    expect(Buffer.from(tsvOf(p, 3)).readInt32BE(0)).toBe(0);
    expect(prepareBatch(TEXTS, false).vectors).toBeNull();
  });

  it('answers the same on the worker thread, batches in flight together', async () => {
    const local = prepareBatch(TEXTS, true);
    const [a, b] = await Promise.all([prepareOffThread(TEXTS, true), prepareOffThread(TEXTS.slice(0, 2), false)]);
    expect(a.tokens).toEqual(local.tokens);
    expect(Buffer.from(a.tsv).equals(Buffer.from(local.tsv))).toBe(true);
    expect(Array.from(a.tsvEnds)).toEqual(Array.from(local.tsvEnds));
    expect(Array.from(a.vectors!)).toEqual(Array.from(local.vectors!));
    expect(b.vectors).toBeNull();
    expect(b.tokens).toEqual(local.tokens.slice(0, 2));
  });

  it("writes the rows' COPY input with the vectors (the same on the worker thread)", async () => {
    const [tenantId, datasetId, documentId, parentId] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const meta = { document_name: 'notes.txt' };
    const rows: CopyRow[] = TEXTS.map((content, k) => ({
      id: randomUUID(),
      tenantId,
      datasetId,
      documentId,
      parentId: k === 1 ? parentId : null,
      kind: k === 1 ? 'child' : 'chunk',
      position: k + 1,
      content,
      metadata: k === 2 ? { document_name: 'ü.txt', row: { a: '知识' } } : meta,
    }));
    const local = prepareBatch(TEXTS, true, rows);
    const expected = copyBinary(rows, local.tokens, TEXTS.map((_, k) => vectorOf(local, k)), TEXTS.map((_, k) => tsvOf(local, k)));
    expect(Buffer.from(local.copy!).equals(expected)).toBe(true);
    expect(Buffer.from((await prepareOffThread(TEXTS, true, rows)).copy!).equals(expected)).toBe(true);
    expect(prepareBatch(TEXTS, false, rows).copy).toBeNull();

    // Read it back as PostgreSQL does: signature, flags, header extension, rows of 12 fields, -1.
    const b = expected;
    expect(b.subarray(0, 11).toString('latin1')).toBe('PGCOPY\n\xff\r\n\0');
    let o = 19;
    const uuidText = (x: Buffer) => x.toString('hex').replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
    rows.forEach((r, k) => {
      expect(b.readInt16BE(o)).toBe(12);
      o += 2;
      const fields: (Buffer | null)[] = [];
      for (let f = 0; f < 12; f++) {
        const len = b.readInt32BE(o);
        o += 4;
        fields.push(len < 0 ? null : b.subarray(o, o + len));
        if (len > 0) o += len;
      }
      expect(fields.slice(0, 4).map((x) => uuidText(x!))).toEqual([r.id, tenantId, datasetId, documentId]);
      expect(fields[4] ? uuidText(fields[4]) : null).toBe(r.parentId);
      expect(fields[5]!.toString()).toBe(r.kind);
      expect(fields[6]!.readInt32BE(0)).toBe(r.position);
      expect(fields[7]!.toString()).toBe(r.content);
      expect(fields[8]!.toString()).toBe(local.tokens[k]);
      expect(fields[9]!.equals(Buffer.from(tsvOf(local, k)))).toBe(true);
      const v = fields[10]!;
      expect([v.readInt16BE(0), v.readInt16BE(2)]).toEqual([256, 0]);
      const want = vectorOf(local, k);
      for (let j = 0; j < 256; j++) expect(v.readFloatBE(4 + 4 * j)).toBe(want[j]);
      expect(fields[11]![0]).toBe(1); // jsonb version
      expect(JSON.parse(fields[11]!.subarray(1).toString())).toEqual(r.metadata);
    });
    expect(b.readInt16BE(o)).toBe(-1);
    expect(o + 2).toBe(b.length);
  });

  it('writes a model vector with non-finite values as zeros', () => {
    const row: CopyRow = { id: randomUUID(), tenantId: randomUUID(), datasetId: randomUUID(), documentId: randomUUID(), position: 1, content: 'x' };
    const b = copyBinary([row], ['x'], [[0.5, Number.NaN, Number.POSITIVE_INFINITY, -2]], [Buffer.from([0, 0, 0, 0])]);
    const at = b.indexOf(Buffer.from([0, 0, 0, 20, 0, 4, 0, 0])) + 8;
    expect([0, 1, 2, 3].map((j) => b.readFloatBE(at + 4 * j))).toEqual([0.5, 0, 0, -2]);
  });
});
