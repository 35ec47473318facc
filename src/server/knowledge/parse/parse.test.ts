// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { makeCsv, makeDoc, makeDocx, makePdf, makeXls, makeXlsx } from '../test-files';
import { excelHeaders, excelSheets, extensionOf, fileKind, htmlToText, KNOWLEDGE_FILE_TYPES, parseFile } from './index';

const text = async (name: string, bytes: Buffer) => {
  const doc = await parseFile({ bytes, name });
  if (doc.kind !== 'text') throw new Error('expected text');
  return doc;
};
const table = async (name: string, bytes: Buffer, opts?: { sheet?: string; headerRow?: number }) => {
  const doc = await parseFile({ bytes, name }, opts);
  if (doc.kind !== 'table') throw new Error('expected table');
  return doc.sheets;
};

describe('parseFile: text formats', () => {
  it('reads a PDF with English and Chinese lines over two pages, and its title', async () => {
    const doc = await text('report.pdf', makePdf([['Quarterly report for Weft', '知识库检索测试'], ['Second page text']], 'Weft Report'));
    expect(doc.text).toBe('Quarterly report for Weft\n知识库检索测试\n\nSecond page text');
    expect(doc.title).toBe('Weft Report');
  });

  it('reads a DOCX with Chinese paragraphs and escaped characters', async () => {
    const doc = await text('a.docx', makeDocx(['First paragraph <b> & "quotes"', '第二段：中文内容。']));
    expect(doc.text).toBe('First paragraph <b> & "quotes"\n\n第二段：中文内容。');
  });

  it('reads a Word 97 .doc (OLE2 compound file) with Chinese text', async () => {
    const doc = await text('old.doc', makeDoc(['Legacy Word document', '旧版文档的中文段落']));
    expect(doc.text).toBe('Legacy Word document\n旧版文档的中文段落');
  });

  it('reads a .doc file that is really a DOCX', async () => {
    expect((await text('renamed.doc', makeDocx(['zip inside']))).text).toBe('zip inside');
  });

  it('reads txt and md as UTF-8, strips the BOM and normalises line ends', async () => {
    expect((await text('a.txt', Buffer.from('\ufeff你好\r\nworld\r', 'utf8'))).text).toBe('你好\nworld\n');
    expect((await text('b.md', Buffer.from('# Title\n\nbody', 'utf8'))).text).toBe('# Title\n\nbody');
  });

  it('reads a GBK-encoded Chinese txt file', async () => {
    // "中文" in GBK
    const gbk = Buffer.from([0xd6, 0xd0, 0xce, 0xc4, 0x41]);
    expect((await text('gbk.txt', gbk)).text).toBe('中文A');
  });

  it('reads UTF-16LE text with a BOM', async () => {
    expect((await text('u16.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('知识 base', 'utf16le')]))).text).toBe('知识 base');
  });
});

describe('parseFile: tables', () => {
  const rows = [
    ['产品', 'Price', '说明'],
    ['苹果', 3, 'Fresh, red'],
    ['', '', ''],
    ['香蕉', 2.5, '黄色'],
  ];

  it('reads every sheet of an XLSX with headers and non-empty rows', async () => {
    const bytes = await makeXlsx([
      { name: '水果', rows },
      { name: 'Other', rows: [['k', 'v'], ['a', 1]] },
    ]);
    const sheets = await table('p.xlsx', bytes);
    expect(sheets).toEqual([
      { name: '水果', headers: ['产品', 'Price', '说明'], rows: [['苹果', '3', 'Fresh, red'], ['香蕉', '2.5', '黄色']] },
      { name: 'Other', headers: ['k', 'v'], rows: [['a', '1']] },
    ]);
    expect((await table('p.xlsx', bytes, { sheet: 'Other' })).map((s) => s.name)).toEqual(['Other']);
    expect(await excelSheets(bytes, 'p.xlsx')).toEqual(['水果', 'Other']);
    expect(await excelHeaders(bytes, 'p.xlsx', undefined, 1)).toEqual(['产品', 'Price', '说明']);
    expect(await excelHeaders(bytes, 'p.xlsx', 'Other', 2)).toEqual(['a', '1']);
    await expect(parseFile({ bytes, name: 'p.xlsx' }, { sheet: 'Nope' })).rejects.toThrow("no sheet named 'Nope'");
  });

  it('uses a later header row when asked', async () => {
    const bytes = await makeXlsx([{ name: 'S', rows: [['Title line'], ...rows] }]);
    const [s] = await table('p.xlsx', bytes, { headerRow: 2 });
    expect(s!.headers).toEqual(['产品', 'Price', '说明']);
    expect(s!.rows).toHaveLength(2);
  });

  it('reads a CSV with a BOM, quoted commas and Chinese', async () => {
    const bytes = makeCsv(
      [
        ['名称', 'note'],
        ['苹果', 'a, "b"'],
        ['香蕉', '多行\n文本'],
      ],
      { bom: true },
    );
    expect(await table('fruit.csv', bytes)).toEqual([
      { name: 'fruit', headers: ['名称', 'note'], rows: [['苹果', 'a, "b"'], ['香蕉', '多行\n文本']] },
    ]);
    expect(await excelSheets(bytes, 'fruit.csv')).toEqual(['fruit']);
    expect(await excelHeaders(bytes, 'fruit.csv', undefined, 2)).toEqual(['苹果', 'a, "b"']);
  });

  it('reads a real Excel 97-2003 .xls (BIFF8) workbook', async () => {
    const bytes = makeXls([
      { name: '水果', rows },
      { name: 'Other', rows: [['k', 'v'], ['a', 1]] },
    ]);
    expect(bytes.subarray(0, 4)).toEqual(Buffer.from([0xd0, 0xcf, 0x11, 0xe0]));
    expect(await table('old.xls', bytes)).toEqual([
      { name: '水果', headers: ['产品', 'Price', '说明'], rows: [['苹果', '3', 'Fresh, red'], ['香蕉', '2.5', '黄色']] },
      { name: 'Other', headers: ['k', 'v'], rows: [['a', '1']] },
    ]);
    expect(await excelSheets(bytes, 'old.xls')).toEqual(['水果', 'Other']);
    expect(await excelHeaders(bytes, 'old.xls', 'Other', 1)).toEqual(['k', 'v']);
    expect(await excelHeaders(bytes, 'old.xls', undefined, 1)).toEqual(['产品', 'Price', '说明']);
    await expect(parseFile({ bytes, name: 'old.xls' }, { sheet: 'Nope' })).rejects.toThrow("no sheet named 'Nope'");
  });

  it('refuses a broken .xls', async () => {
    const ole = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0]);
    await expect(parseFile({ bytes: ole, name: 'old.xls' })).rejects.toThrow('not a readable Excel (.xls)');
    await expect(parseFile({ bytes: Buffer.from('plain text'), name: 'old.xls' })).rejects.toThrow('not a readable Excel (.xls)');
  });

  it('reads an XLSX that was named .xls', async () => {
    const sheets = await table('named.xls', await makeXlsx([{ name: 'S', rows: [['h'], ['v']] }]));
    expect(sheets[0]!.rows).toEqual([['v']]);
  });
});

describe('parseFile: failures give user-facing messages', () => {
  it('refuses unknown types, empty files and broken documents', async () => {
    await expect(parseFile({ bytes: Buffer.from('x'), name: 'a.exe' })).rejects.toThrow("Unsupported file type '.exe'");
    await expect(parseFile({ bytes: Buffer.alloc(0), name: 'a.txt' })).rejects.toThrow('is empty');
    await expect(parseFile({ bytes: Buffer.from('not a pdf at all'), name: 'a.pdf' })).rejects.toThrow('not a readable PDF');
    await expect(parseFile({ bytes: Buffer.from('PK\u0003\u0004junk'), name: 'a.docx' })).rejects.toThrow('not a readable Word (.docx)');
    await expect(parseFile({ bytes: Buffer.from('junk junk junk'), name: 'a.doc' })).rejects.toThrow('not a readable Word (.doc)');
    await expect(parseFile({ bytes: Buffer.from('PK\u0003\u0004junk'), name: 'a.xlsx' })).rejects.toThrow('not a readable Excel');
    await expect(parseFile({ bytes: makeCsv([['a']]), name: 'a.csv' }, { headerRow: 0 })).rejects.toThrow('header row');
  });

  it('knows the upload types of spec 5', () => {
    expect(KNOWLEDGE_FILE_TYPES).toEqual({ text: ['pdf', 'txt', 'doc', 'docx', 'md'], table: ['xls', 'xlsx', 'csv'] });
    expect(fileKind('A.PDF')).toBe('text');
    expect(fileKind('b.csv')).toBe('table');
    expect(fileKind('c.png')).toBeNull();
    expect(extensionOf('noext')).toBe('');
  });
});

describe('htmlToText', () => {
  it('keeps headings and paragraphs, drops scripts, styles, navigation and footers, decodes entities', () => {
    const html = `<!doctype html><html><head><title>Weft &amp; Docs</title><style>p{color:red}</style>
      <script>var x = "<p>no</p>";</script></head><body>
      <nav><a href="/">Home</a> | <a href="/x">Menu</a></nav>
      <header><div>Site banner</div></header>
      <h1>知识库 Guide</h1><p>First&nbsp;paragraph with &lt;tags&gt; &#20013;&#x6587;.</p>
      <!-- a comment -->
      <ul><li>one</li><li>two</li></ul>
      <footer>Copyright 2026</footer></body></html>`;
    const r = htmlToText(html, 'https://example.com/guide');
    expect(r.title).toBe('Weft & Docs');
    expect(r.text).toBe('知识库 Guide\n\nFirst paragraph with <tags> 中文.\n\n- one\n- two');
    expect(r.text).not.toMatch(/Home|Menu|banner|Copyright|color|var x/);
  });

  it('prefers <main>, falls back to the h1 or the URL for the title', () => {
    expect(htmlToText('<body><div>chrome</div><main><h1>Main title</h1><p>Body</p></main></body>')).toEqual({ title: 'Main title', text: 'Main title\n\nBody' });
    expect(htmlToText('<p>x</p>', 'https://e.com/a').title).toBe('https://e.com/a');
  });
});
