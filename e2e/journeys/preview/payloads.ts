/**
 * The files the previewer's security and document journeys open, built here rather than shipped:
 * a .docx whose text looks like HTML and whose links and drawing carry script, a plain .docx
 * report, the CVE-2024-4367 FontMatrix pdf, a three-page pdf report, a pdf that needs a CMap, an
 * HTML page named .pdf, an SVG with a script and an onload handler, and a name with a
 * right-to-left override. Each payload would set `window.__pwned` or ask for a /__pwned/... URL
 * if it ran.
 */
import { strToU8, zipSync } from 'fflate';
import { pdf, stream } from '../../support/pdf.ts';
const DOCX_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Default Extension="svg" ContentType="image/svg+xml"/>
<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>
<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/>
</Types>`;
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const DOCX_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="${REL}/officeDocument" Target="word/document.xml"/>
</Relationships>`;
const DOCX_STYLES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">
<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style>
<w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/></w:style>
</w:styles>`;

const xml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

type Block =
  | { heading: 1 | 2; text: string }
  | { text: string; bold?: boolean }
  | { link: string; text: string }
  | { table: string[][] }
  | { svg: Uint8Array; alt: string };

/** A minimal .docx: content types, package and document relationships, styles, the document. */
function docx(blocks: Block[]): Uint8Array {
  const links: string[] = [];
  const media: Record<string, Uint8Array> = {};
  const run = (text: string, bold = false) =>
    `<w:r>${bold ? '<w:rPr><w:b/></w:rPr>' : ''}<w:t xml:space="preserve">${xml(text)}</w:t></w:r>`;
  const body = blocks
    .map((block) => {
      if ('heading' in block) {
        return `<w:p><w:pPr><w:pStyle w:val="Heading${block.heading}"/></w:pPr>${run(block.text)}</w:p>`;
      }
      if ('link' in block) {
        const id = `rIdLink${links.length}`;
        links.push(`<Relationship Id="${id}" Type="${REL}/hyperlink" Target="${xml(block.link)}" TargetMode="External"/>`);
        return `<w:p><w:hyperlink r:id="${id}">${run(block.text)}</w:hyperlink></w:p>`;
      }
      if ('svg' in block) {
        const id = `rIdImage${Object.keys(media).length}`;
        media[`word/media/${id}.svg`] = block.svg;
        links.push(`<Relationship Id="${id}" Type="${REL}/image" Target="media/${id}.svg"/>`);
        return (
          `<w:p><w:r><w:drawing><wp:inline><wp:extent cx="1143000" cy="762000"/><wp:docPr id="1" name="${id}" descr="${xml(block.alt)}"/>` +
          '<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic>' +
          `<pic:blipFill><a:blip r:embed="${id}"/></pic:blipFill></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`
        );
      }
      if ('table' in block) {
        const rows = block.table
          .map((row) => `<w:tr>${row.map((cell) => `<w:tc><w:p>${run(cell)}</w:p></w:tc>`).join('')}</w:tr>`)
          .join('');
        return `<w:tbl>${rows}</w:tbl>`;
      }
      return `<w:p>${run(block.text, block.bold)}</w:p>`;
    })
    .join('');
  const document = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="${REL}" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><w:body>${body}</w:body></w:document>`;
  const documentRels = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rIdStyles" Type="${REL}/styles" Target="styles.xml"/>${links.join('')}
</Relationships>`;
  return zipSync({
    '[Content_Types].xml': strToU8(DOCX_TYPES),
    '_rels/.rels': strToU8(DOCX_RELS),
    'word/document.xml': strToU8(document),
    'word/styles.xml': strToU8(DOCX_STYLES),
    'word/_rels/document.xml.rels': strToU8(documentRels),
    ...media,
  });
}

/** Reads "invoice" + "exe.pdf" where bidi controls are obeyed; it is an .exe. */
export const BIDI_NAME = 'invoice\u202Efdp.exe';
export const SVG_PAYLOAD = strToU8(
  `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80" onload="top.__pwned='svg-onload';fetch('/__pwned/svg-onload')"><script>top.__pwned='svg-script';fetch('/__pwned/svg-script')</script><rect width="120" height="80" fill="#3a7"/></svg>`,
);

/** Text that looks like HTML: it must reach the frame as text. */
export const HTML_TEXT = `<img src=x onerror="top.__pwned='word-onerror';fetch('/__pwned/word-onerror')">`;
export const SCRIPT_TEXT = `<script>top.__pwned='word-script';fetch('/__pwned/word-script')</script>`;
export const CLICK_TEXT = `<a href="#" onclick="top.__pwned='word-onclick'">click</a>`;
export const WORD_PAYLOAD = docx([
  { heading: 1, text: 'Quarterly notes' },
  { text: HTML_TEXT },
  { text: SCRIPT_TEXT },
  { text: CLICK_TEXT },
  { link: "javascript:top.__pwned='word-link';fetch('/__pwned/word-link')", text: 'Open the figures' },
  { link: 'https://example.com/figures', text: 'The figures online' },
  { link: 'data:text/html,<script>top.__pwned=1</script>', text: 'Data link' },
  { link: 'blob:https://example.com/0b7c', text: 'Blob link' },
  { link: '/api/files', text: 'Relative link' },
  { link: 'mailto:harbour@example.com', text: 'Mail link' },
  { svg: SVG_PAYLOAD, alt: `"><img src=x onerror="top.__pwned='word-alt'">` },
]);
export const WORD_REPORT = docx([
  { heading: 1, text: 'Harbour renovation: quarterly report' },
  {
    text: 'The north quay reopened in March after eleven weeks of work. Foot traffic is back to its level of last spring, and the ferry timetable runs in full again.',
  },
  { heading: 2, text: 'Figures' },
  {
    table: [
      ['Item', 'Budget', 'Spent'],
      ['Quay wall', '120,000', '112,400'],
      ['Lighting', '18,000', '19,250'],
      ['Benches', '6,500', '4,900'],
    ],
  },
  { heading: 2, text: 'Next steps' },
  { text: 'Repaint the railings before the summer season.', bold: true },
  { text: 'Ask the council for the second grant; the form is due at the end of the month.' },
  { link: 'https://example.com/harbour', text: 'The plans online' },
]);

/**
 * CVE-2024-4367: pdf.js < 4.2.67 pasted a font's /FontMatrix into a glyph drawing function it
 * compiled with `new Function` (when eval was allowed). The font here is a Type1 whose matrix ends
 * in a string closing that call and running our marker; its text is filled with a tiling pattern,
 * which makes pdf.js draw glyphs as paths (the code that compiled them).
 */
const FONT_MATRIX_PAYLOAD = `(1\\); top.__pwned = 'pdf-fontmatrix'; fetch\\('/__pwned/pdf-fontmatrix'\\); //)`;
export const PDF_PAYLOAD = (() => {
  const content = [
    '0.2 0.3 0.5 rg 40 700 520 2 re f',
    '/Pattern cs /P1 scn',
    'BT /F1 64 Tf 50 560 Td (AbCdEf) Tj ET',
    '0 g BT /F2 18 Tf 50 480 Td (A font matrix that carries script.) Tj ET',
  ].join('\n');
  const tile = '0.85 0.3 0.2 rg 0 0 8 8 re f 0.2 0.4 0.8 rg 8 8 8 8 re f';
  return pdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources 4 0 R /Contents 5 0 R >>',
    '<< /Font << /F1 6 0 R /F2 9 0 R >> /Pattern << /P1 8 0 R >> >>',
    stream(content),
    `<< /Type /Font /Subtype /Type1 /BaseFont /ABCDEF+Payload /FirstChar 65 /LastChar 102 /Widths [${Array(38).fill(560).join(' ')}] /Encoding /WinAnsiEncoding /FontDescriptor 7 0 R /FontMatrix [0.001 0 0 0.001 0 ${FONT_MATRIX_PAYLOAD}] >>`,
    '<< /Type /FontDescriptor /FontName /ABCDEF+Payload /Flags 32 /FontBBox [-6 -12 579 713] /ItalicAngle 0 /Ascent 751 /Descent -173 /CapHeight 713 /StemV 100 /MissingWidth 250 /FontFile3 10 0 R >>',
    stream(
      tile,
      ' /Type /Pattern /PatternType 1 /PaintType 1 /TilingType 1 /BBox [0 0 16 16] /XStep 16 /YStep 16 /Resources << >>',
    ),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    stream('', ' /Subtype /Type1C'),
  ]);
})();

/** A plain three-page document for the screenshots and the page controls. */
export const PDF_REPORT = (() => {
  const pages = [1, 2, 3];
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>'];
  const kids = pages.map((_, i) => `${4 + i * 2} 0 R`).join(' ');
  objects.push(`<< /Type /Pages /Kids [${kids}] /Count ${pages.length} >>`);
  objects.push('<< /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >>');
  for (const n of pages) {
    const lines = [
      '0.16 0.33 0.62 rg 56 700 500 40 re f',
      `1 g BT /F1 22 Tf 70 713 Td (Harbour renovation, page ${n}) Tj ET`,
      '0.2 g',
      ...Array.from(
        { length: 14 },
        (_, i) => `BT /F1 12 Tf 56 ${660 - i * 22} Td (Line ${i + 1}: the north quay reopened after eleven weeks of work.) Tj ET`,
      ),
      `0.85 0.45 0.2 rg 56 ${300 - n * 30} ${120 * n} 60 re f`,
    ].join('\n');
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources 3 0 R /Contents ${objects.length + 2} 0 R >>`);
    objects.push(stream(lines));
  }
  return pdf(objects);
})();

/** Japanese text in a font the pdf does not embed: pdf.js needs a CMap for it, and Helvetica. */
export const PDF_CJK = (() => {
  const text = '<3053 3093 306B 3061 306F>'; // こんにちは in UCS-2
  return pdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R /F2 6 0 R >> >> /Contents 7 0 R >>',
    '<< /Type /Font /Subtype /Type0 /BaseFont /KozMinPr6N-Regular /Encoding /UniJIS-UCS2-H /DescendantFonts [5 0 R] >>',
    '<< /Type /Font /Subtype /CIDFontType0 /BaseFont /KozMinPr6N-Regular /CIDSystemInfo << /Registry (Adobe) /Ordering (Japan1) /Supplement 6 >> /FontDescriptor << /Type /FontDescriptor /FontName /KozMinPr6N-Regular /Flags 6 /FontBBox [0 -120 1000 880] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 740 /StemV 80 >> >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    stream(`BT /F1 36 Tf 72 680 Td ${text} Tj ET BT /F2 18 Tf 72 620 Td (Hello from Helvetica) Tj ET`),
  ]);
})();

/** Not a pdf at all: an HTML page with script, named .pdf. pdf.js refuses it; the fallback frame
 * must show it as a pdf (and fail), never as the HTML it is. */
export const FAKE_PDF = strToU8(
  `<!doctype html><script>top.__pwned='fake-pdf';fetch('/__pwned/fake-pdf')</script><img src=x onerror="top.__pwned='fake-pdf-onerror'">`,
);
