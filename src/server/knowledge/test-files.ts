/**
 * Real files for the parser tests, built from their published formats rather than checked in as
 * binaries: a PDF (hand-written objects, Helvetica for Latin text and an Identity-H CID font with a
 * ToUnicode map for CJK text), an XLS (BIFF8, written by SheetJS), a DOCX (OOXML parts zipped with fflate), a Word 97 .doc (FIB, text and
 * piece table in an OLE2 compound file written with cfb), an XLSX (exceljs) and a CSV.
 * Test support only: imported by tests, never by the server.
 */
import CFB from 'cfb';
import ExcelJS from 'exceljs';
import { strToU8, zipSync } from 'fflate';
import * as XLSX from '@e965/xlsx';

const isAscii = (s: string) => /^[\x20-\x7e]*$/.test(s);
const pdfString = (s: string) => '(' + s.replace(/[\\()]/g, (c) => '\\' + c) + ')';
const hex4 = (n: number) => n.toString(16).padStart(4, '0').toUpperCase();

/**
 * A PDF with one page per entry of `pages`, each a list of lines. ASCII lines use Helvetica; other
 * lines use a CID font whose CIDs are the characters' code points (BMP), mapped back by ToUnicode,
 * so text extraction gives the original characters without any font file.
 */
export function makePdf(pages: string[][], title?: string): Buffer {
  const chars = new Set<number>();
  for (const line of pages.flat()) if (!isAscii(line)) for (const ch of line) chars.add(ch.codePointAt(0)!);
  const objs: string[] = [];
  const add = (body: string) => objs.push(body) as number; // object number = position (1-based)
  add('<< /Type /Catalog /Pages 2 0 R >>');
  add(''); // pages, filled in below
  add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>'); // 3
  const cmap = [
    '/CIDInit /ProcSet findresource begin 12 dict begin begincmap',
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def /CMapName /Adobe-Identity-UCS def /CMapType 2 def',
    '1 begincodespacerange <0000> <FFFF> endcodespacerange',
    ...[...chars].flatMap((c, i, all) => (i % 100 === 0 ? [`${Math.min(100, all.length - i)} beginbfchar`] : []).concat(`<${hex4(c)}> <${hex4(c)}>`, i % 100 === 99 || i === all.length - 1 ? ['endbfchar'] : [])),
    'endcmap CMapName currentdict /CMap defineresource pop end end',
  ].join('\n');
  const toUnicode = add(`<< /Length ${Buffer.byteLength(cmap)} >>\nstream\n${cmap}\nendstream`); // 4
  const descriptor = add('<< /Type /FontDescriptor /FontName /STSong-Light /Flags 4 /FontBBox [0 -200 1000 900] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 700 /StemV 80 >>');
  const cid = add(`<< /Type /Font /Subtype /CIDFontType2 /BaseFont /STSong-Light /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor ${descriptor} 0 R /DW 1000 /CIDToGIDMap /Identity >>`);
  const type0 = add(`<< /Type /Font /Subtype /Type0 /BaseFont /STSong-Light /Encoding /Identity-H /DescendantFonts [${cid} 0 R] /ToUnicode ${toUnicode} 0 R >>`);
  const kids: number[] = [];
  for (const lines of pages) {
    const ops = lines.map((line, i) => {
      const show = isAscii(line) ? `/F1 12 Tf ${pdfString(line)} Tj` : `/F2 12 Tf <${[...line].map((c) => hex4(c.codePointAt(0)!)).join('')}> Tj`;
      return `BT 72 ${740 - i * 18} Td ${show} ET`;
    });
    const content = ops.join('\n');
    const stream = add(`<< /Length ${Buffer.byteLength(content)} >>\nstream\n${content}\nendstream`);
    kids.push(
      add(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R /F2 ${type0} 0 R >> >> /Contents ${stream} 0 R >>`),
    );
  }
  objs[1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  const info = title && isAscii(title) ? add(`<< /Title ${pdfString(title)} >>`) : 0;
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objs.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n` + offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  out += `trailer\n<< /Size ${objs.length + 1} /Root 1 0 R${info ? ` /Info ${info} 0 R` : ''} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'utf8');
}

const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A Word 2007+ document with one paragraph per entry (the minimal OOXML package). */
export function makeDocx(paragraphs: string[]): Buffer {
  const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
  const doc =
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document xmlns:w="${W}"><w:body>` +
    paragraphs.map((p) => `<w:p><w:r><w:t xml:space="preserve">${xmlEscape(p)}</w:t></w:r></w:p>`).join('') +
    '</w:body></w:document>';
  const types =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
    '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>';
  const rels =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>';
  return Buffer.from(zipSync({ '[Content_Types].xml': strToU8(types), '_rels/.rels': strToU8(rels), 'word/document.xml': strToU8(doc) }));
}

/**
 * A Word 97-2003 binary document: a WordDocument stream holding the FIB and the text (UTF-16LE, one
 * paragraph mark \r after each paragraph), and a 1Table stream holding the Clx with a one-piece table.
 * No formatting runs: readers fall back to the default character and paragraph properties.
 */
export function makeDoc(paragraphs: string[]): Buffer {
  const text = paragraphs.map((p) => p + '\r').join('');
  const FC_TEXT = 1024;
  const textBytes = Buffer.from(text, 'utf16le');
  const wd = Buffer.alloc(FC_TEXT + textBytes.length);
  wd.writeUInt16LE(0xa5ec, 0x00); // wIdent
  wd.writeUInt16LE(0x00c1, 0x02); // nFib: Word 97
  wd.writeUInt16LE(0x0200, 0x0a); // fWhichTblStm: the table stream is 1Table
  wd.writeUInt32LE(FC_TEXT, 0x18); // fcMin
  wd.writeUInt32LE(FC_TEXT + textBytes.length, 0x1c); // fcMac
  wd.writeUInt16LE(14, 0x20); // csw
  wd.writeUInt32LE(text.length, 0x4c); // ccpText
  textBytes.copy(wd, FC_TEXT);
  // Clx: one Pcdt (0x02, lcb) with CPs [0, n] and one PCD whose fc (bit 30 clear: UTF-16) is the text.
  const clx = Buffer.alloc(1 + 4 + 8 + 8);
  clx.writeUInt8(0x02, 0);
  clx.writeUInt32LE(16, 1);
  clx.writeUInt32LE(0, 5);
  clx.writeUInt32LE(text.length, 9);
  clx.writeUInt16LE(0, 13);
  clx.writeUInt32LE(FC_TEXT, 15);
  clx.writeUInt16LE(0, 19);
  wd.writeUInt32LE(0, 0x1a2); // fcClx (in 1Table)
  wd.writeUInt32LE(clx.length, 0x1a6); // lcbClx
  const cfb = CFB.utils.cfb_new();
  CFB.utils.cfb_add(cfb, '/WordDocument', wd);
  CFB.utils.cfb_add(cfb, '/1Table', clx);
  return Buffer.from(CFB.write(cfb, { type: 'buffer' }) as Uint8Array);
}

/** An XLSX workbook: each sheet's first row is its header. */
export async function makeXlsx(sheets: { name: string; rows: (string | number)[][] }[]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  for (const s of sheets) wb.addWorksheet(s.name).addRows(s.rows);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** A CSV file (quoted as needed, CRLF line ends like Excel writes), optionally with a UTF-8 BOM. */
export function makeCsv(rows: string[][], opts: { bom?: boolean } = {}): Buffer {
  const cell = (c: string) => (/[",\r\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c);
  const body = rows.map((r) => r.map(cell).join(',')).join('\r\n') + '\r\n';
  return Buffer.from((opts.bom ? '\ufeff' : '') + body, 'utf8');
}

/** An Excel 97-2003 (.xls, BIFF8) workbook: each sheet's first row is its header. */
export function makeXls(sheets: { name: string; rows: (string | number)[][] }[]): Buffer {
  const wb = XLSX.utils.book_new();
  for (const s of sheets) XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(s.rows), s.name);
  return Buffer.from(XLSX.write(wb, { type: 'buffer', bookType: 'xls' }) as Uint8Array);
}
