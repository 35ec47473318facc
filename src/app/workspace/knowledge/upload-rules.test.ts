import { describe, expect, it } from 'vitest';
import { ACCEPT, checkDocumentName, checkUrl, DOCUMENT_NAME_MAX, nameFromUrl, pickKnowledgeFiles } from './upload-rules';

const f = (name: string, mb = 1) => ({ name, size: mb * 1024 * 1024 });
const limits = (kind: 'text' | 'table', maxCount = 3, maxMb = 10) => ({ accept: ACCEPT[kind], maxCount, maxMb });

describe('knowledge upload rules (spec 5)', () => {
  it('accepts the text types and refuses others with the unsupported-type message', () => {
    const r = pickKnowledgeFiles([f('a.pdf'), f('b.TXT'), f('c.doc'), f('d.docx'), f('e.xlsx')], { taken: [], inList: 0, limits: limits('text', 10) });
    expect(r.accepted.map((x) => x.name)).toEqual(['a.pdf', 'b.TXT', 'c.doc', 'd.docx']);
    expect(r.rejected).toEqual([{ key: 'kit:upload.unsupportedType', params: { types: '.pdf, .txt, .doc, .docx', name: 'e.xlsx' } }]);
  });

  it('accepts the table types only on the table page', () => {
    const r = pickKnowledgeFiles([f('a.xls'), f('b.xlsx'), f('c.csv'), f('d.pdf')], { taken: [], inList: 0, limits: limits('table', 10) });
    expect(r.accepted.map((x) => x.name)).toEqual(['a.xls', 'b.xlsx', 'c.csv']);
    expect(r.rejected[0]?.key).toBe('kit:upload.unsupportedType');
  });

  it('refuses a file over the configured size with the limit in the message', () => {
    const r = pickKnowledgeFiles([f('big.pdf', 11)], { taken: [], inList: 0, limits: limits('text') });
    expect(r.accepted).toEqual([]);
    expect(r.rejected).toEqual([{ key: 'kit:upload.tooLarge', params: { max: 10, name: 'big.pdf' } }]);
  });

  it('refuses names already in the knowledge base or twice in one batch, case-insensitively', () => {
    const r = pickKnowledgeFiles([f('Guide.pdf'), f('notes.txt'), f('NOTES.txt')], { taken: ['guide.pdf'], inList: 0, limits: limits('text') });
    expect(r.accepted.map((x) => x.name)).toEqual(['notes.txt']);
    expect(r.rejected.map((m) => [m.key, m.params?.name])).toEqual([
      ['knowledge:upload.duplicateName', 'Guide.pdf'],
      ['knowledge:upload.duplicateName', 'NOTES.txt'],
    ]);
  });

  it('keeps to the count limit, counting files already in the list', () => {
    const r = pickKnowledgeFiles([f('a.txt'), f('b.txt'), f('c.txt')], { taken: [], inList: 2, limits: limits('text', 3) });
    expect(r.accepted.map((x) => x.name)).toEqual(['a.txt']);
    expect(r.rejected).toEqual([{ key: 'kit:upload.tooMany', params: { count: 3 } }]);
  });

  it('checks a URL source: required, http(s), not already present', () => {
    expect(checkUrl('  ', [])?.key).toBe('kit:validation.required');
    expect(checkUrl('ftp://x.org/a', [])?.key).toBe('knowledge:add.urlInvalid');
    expect(checkUrl('not a url', [])?.key).toBe('knowledge:add.urlInvalid');
    expect(checkUrl('https://x.org/a', ['https://x.org/a'])?.key).toBe('knowledge:add.urlExists');
    expect(checkUrl('https://x.org/b', ['https://x.org/a'])).toBeNull();
  });

  it('checks a unit name: required, within the maximum length, not taken', () => {
    expect(checkDocumentName('  ', [])?.key).toBe('kit:validation.required');
    expect(checkDocumentName('x'.repeat(DOCUMENT_NAME_MAX + 1), [])).toEqual({ key: 'kit:validation.maxLength', params: { max: DOCUMENT_NAME_MAX } });
    expect(checkDocumentName('Docs', ['docs'])?.key).toBe('knowledge:upload.duplicateName');
    expect(checkDocumentName('Docs', ['other'])).toBeNull();
  });

  it('names a web page unit after its host and path', () => {
    expect(nameFromUrl('https://example.org/help/start?x=1')).toBe('example.org/help/start');
    expect(nameFromUrl('https://example.org/')).toBe('example.org');
    expect(nameFromUrl('nonsense')).toBe('');
  });
});
