/**
 * Draws a report model into a PDF (jsPDF, A4): paginated, page images scaled to the text width, and a footer
 * with the generation date and "page n of m" on every page. Text uses DejaVu Sans (embedded, subset by
 * jsPDF), which covers Turkish letters; the PDF's built-in fonts do not.
 */
import { jsPDF } from 'jspdf';
import type { ReportImage } from '../api/profileReport';
import type { ReportBlock, ReportModel, Row } from './reportModel';

export interface ReportFonts {
  regular: Uint8Array;
  bold: Uint8Array;
}

export interface ReportPdfInput {
  model: ReportModel;
  fonts: ReportFonts;
  /** Page images by page id; a page without one shows its `missing` text. */
  images?: ReadonlyMap<number, ReportImage>;
  /** The footer of page `page` of `pages`. */
  footer: (page: number, pages: number) => string;
}

const FONT = 'DejaVuSans';
const PAGE = { width: 595.28, height: 841.89 };
const MARGIN = { x: 48, top: 56, bottom: 64 };
const CONTENT_WIDTH = PAGE.width - 2 * MARGIN.x;
const LABEL_WIDTH = 150;
const LINE = 1.35;
const SIZE = { title: 18, name: 14, section: 13, heading: 11, body: 9.5, footer: 8 };
const COLOR = { text: 20, muted: 110, rule: 200, header: 235 };
const IMAGE_MAX_HEIGHT = 320;

/** Base64 of bytes (jsPDF's virtual file system holds binary files as base64). */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) {
    binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  }
  return btoa(binary);
}

export function buildReportPdf({ model, fonts, images = new Map(), footer }: ReportPdfInput): Uint8Array {
  const doc = new jsPDF({ unit: 'pt', format: 'a4', compress: true });
  doc.setProperties({ title: `${model.title}: ${model.name}`, subject: model.title, creator: 'IDV Studio' });
  doc.addFileToVFS(`${FONT}.ttf`, toBase64(fonts.regular));
  doc.addFont(`${FONT}.ttf`, FONT, 'normal');
  doc.addFileToVFS(`${FONT}-Bold.ttf`, toBase64(fonts.bold));
  doc.addFont(`${FONT}-Bold.ttf`, FONT, 'bold');

  let y = MARGIN.top;
  const bottom = PAGE.height - MARGIN.bottom;

  const use = (size: number, style: 'normal' | 'bold' = 'normal', gray: number = COLOR.text) => {
    doc.setFont(FONT, style);
    doc.setFontSize(size);
    doc.setTextColor(gray);
  };
  const lineHeight = (size: number) => size * LINE;
  const lines = (text: string, width: number): string[] => doc.splitTextToSize(text, width) as string[];
  /** Starts a new page when `height` does not fit below `y`. */
  const ensure = (height: number) => {
    if (y + height > bottom) {
      doc.addPage();
      y = MARGIN.top;
    }
  };
  /** Writes wrapped text at x, breaking pages between lines; returns nothing, moves `y`. */
  const paragraph = (text: string, size: number, style: 'normal' | 'bold' = 'normal', gray?: number) => {
    use(size, style, gray);
    for (const line of lines(text, CONTENT_WIDTH)) {
      ensure(lineHeight(size));
      doc.text(line, MARGIN.x, y, { baseline: 'top' });
      y += lineHeight(size);
    }
  };

  const fields = (rows: readonly Row[]) => {
    const lh = lineHeight(SIZE.body);
    for (const [label, value] of rows) {
      use(SIZE.body);
      const labelLines = lines(label, LABEL_WIDTH - 8);
      const valueLines = lines(value, CONTENT_WIDTH - LABEL_WIDTH);
      ensure(Math.min(Math.max(labelLines.length, valueLines.length) * lh, bottom - MARGIN.top));
      const top = y;
      use(SIZE.body, 'normal', COLOR.muted);
      doc.text(labelLines, MARGIN.x, y, { baseline: 'top', lineHeightFactor: LINE });
      use(SIZE.body);
      // A value longer than a page goes on in page-sized parts.
      let rest = valueLines;
      while (rest.length) {
        const room = Math.max(1, Math.floor((bottom - y) / lh));
        doc.text(rest.slice(0, room), MARGIN.x + LABEL_WIDTH, y, { baseline: 'top', lineHeightFactor: LINE });
        y += Math.min(rest.length, room) * lh;
        rest = rest.slice(room);
        if (rest.length) ensure(bottom);
      }
      if (y > top) y = Math.max(y, top + labelLines.length * lh);
      y += 3;
    }
  };

  const table = (columns: readonly string[], rows: readonly string[][]) => {
    const width = CONTENT_WIDTH / columns.length;
    const pad = 4;
    const measure = (cells: readonly string[], header: boolean) => {
      use(SIZE.body, header ? 'bold' : 'normal');
      const wrapped = cells.map((cell) => lines(cell, width - 2 * pad));
      return {
        wrapped,
        height: Math.max(...wrapped.map((cell) => cell.length)) * lineHeight(SIZE.body) + 2 * pad,
      };
    };
    const draw = (cells: readonly string[], header: boolean) => {
      const { wrapped, height } = measure(cells, header);
      use(SIZE.body, header ? 'bold' : 'normal');
      if (header) {
        doc.setFillColor(COLOR.header, COLOR.header, COLOR.header);
        doc.rect(MARGIN.x, y, CONTENT_WIDTH, height, 'F');
      }
      wrapped.forEach((cell, i) => {
        doc.text(cell, MARGIN.x + i * width + pad, y + pad, { baseline: 'top', lineHeightFactor: LINE });
      });
      y += height;
      doc.setDrawColor(COLOR.rule);
      doc.line(MARGIN.x, y, MARGIN.x + CONTENT_WIDTH, y);
    };
    const headerHeight = measure(columns, true).height;
    ensure(headerHeight + (rows[0] ? measure(rows[0], false).height : 0));
    draw(columns, true);
    for (const row of rows) {
      const height = measure(row, false).height;
      if (y + height > bottom) {
        // The row starts a new page: the column names come again above it.
        doc.addPage();
        y = MARGIN.top;
        draw(columns, true);
      }
      draw(row, false);
    }
    y += 6;
  };

  const pictures = (block: Extract<ReportBlock, { kind: 'images' }>) => {
    for (const page of block.images) {
      const image = images.get(page.id);
      if (!image) {
        paragraph(page.missing, SIZE.body, 'normal', COLOR.muted);
        continue;
      }
      let properties: { width: number; height: number };
      try {
        properties = doc.getImageProperties(image.bytes);
      } catch {
        paragraph(page.missing, SIZE.body, 'normal', COLOR.muted);
        continue;
      }
      const scale = Math.min(1, CONTENT_WIDTH / properties.width, IMAGE_MAX_HEIGHT / properties.height);
      const w = properties.width * scale;
      const h = properties.height * scale;
      ensure(h + lineHeight(SIZE.body) + 8);
      use(SIZE.body, 'normal', COLOR.muted);
      doc.text(page.caption, MARGIN.x, y, { baseline: 'top' });
      y += lineHeight(SIZE.body);
      doc.addImage(image.bytes, image.format, MARGIN.x, y, w, h, `page-${page.id}`, 'FAST');
      y += h + 8;
    }
  };

  // Title block.
  paragraph(model.title, SIZE.title, 'bold');
  y += 2;
  paragraph(model.name, SIZE.name, 'bold');
  y += 10;

  for (const section of model.sections) {
    ensure(lineHeight(SIZE.section) + 6 + 2 * lineHeight(SIZE.body));
    y += 4;
    use(SIZE.section, 'bold');
    doc.text(section.title, MARGIN.x, y, { baseline: 'top' });
    y += lineHeight(SIZE.section) + 2;
    doc.setDrawColor(COLOR.rule);
    doc.line(MARGIN.x, y, MARGIN.x + CONTENT_WIDTH, y);
    y += 6;
    for (const block of section.blocks) {
      if (block.kind === 'heading') {
        ensure(lineHeight(SIZE.heading) + 2 * lineHeight(SIZE.body));
        y += 4;
        paragraph(block.text, SIZE.heading, 'bold');
        y += 2;
      } else if (block.kind === 'fields') fields(block.rows);
      else if (block.kind === 'table') table(block.columns, block.rows);
      else if (block.kind === 'text') paragraph(block.text, SIZE.body, 'normal', COLOR.muted);
      else pictures(block);
    }
    y += 8;
  }

  const pages = doc.getNumberOfPages();
  for (let page = 1; page <= pages; page++) {
    doc.setPage(page);
    use(SIZE.footer, 'normal', COLOR.muted);
    doc.setDrawColor(COLOR.rule);
    doc.line(
      MARGIN.x,
      PAGE.height - MARGIN.bottom + 20,
      PAGE.width - MARGIN.x,
      PAGE.height - MARGIN.bottom + 20,
    );
    doc.text(footer(page, pages), PAGE.width / 2, PAGE.height - MARGIN.bottom + 30, {
      align: 'center',
      baseline: 'top',
    });
  }
  return new Uint8Array(doc.output('arraybuffer'));
}
