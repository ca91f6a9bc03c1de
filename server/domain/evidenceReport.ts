/**
 * The PDF report of a call in an evidence package: the call's facts on plain pages, in the studio's
 * default language (en-US). Standard Helvetica: letters it cannot write (Turkish ı, ş, ğ …) are written as
 * their nearest Latin letter; call.json keeps every text exactly.
 */
import { PDFDocument, type PDFFont, StandardFonts } from 'pdf-lib';

export interface ReportLine {
  label: string;
  value: string;
}

export interface ReportSection {
  title: string;
  lines: ReportLine[];
}

const FOLD: Record<string, string> = { ı: 'i', İ: 'I', ş: 's', Ş: 'S', ğ: 'g', Ğ: 'G' };

/** `text` in the letters `font` has: Turkish letters folded, anything else it lacks as '?'. */
function writable(font: PDFFont, text: string): string {
  const known = new Set(font.getCharacterSet());
  let out = '';
  for (const char of text.replace(/[\r\n\t]+/g, ' ')) {
    const folded = FOLD[char] ?? char.normalize('NFD').replace(/\p{M}/gu, '');
    out += [...folded].every((c) => known.has(c.codePointAt(0) ?? 0)) ? folded : '?';
  }
  return out;
}

/** Splits `text` into lines no wider than `width` at `size`. */
function wrap(font: PDFFont, text: string, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const next = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(next, size) <= width || !line) line = next;
    else {
      lines.push(line);
      line = word;
    }
  }
  lines.push(line);
  // A single word wider than the page (a hash) is cut into pieces that fit.
  return lines.flatMap((l) => {
    const parts: string[] = [];
    let rest = l;
    while (font.widthOfTextAtSize(rest, size) > width && rest.length > 1) {
      let n = rest.length - 1;
      while (n > 1 && font.widthOfTextAtSize(rest.slice(0, n), size) > width) n -= 1;
      parts.push(rest.slice(0, n));
      rest = rest.slice(n);
    }
    parts.push(rest);
    return parts;
  });
}

/** An A4 report: a title, then each section's label/value lines; more pages when needed. */
export async function renderReport(
  title: string,
  sections: ReportSection[],
  footer: string,
): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(title);
  pdf.setProducer('IDV Studio reference server');
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const [pageWidth, pageHeight] = [595.28, 841.89];
  const margin = 50;
  const labelWidth = 150;
  const valueWidth = pageWidth - 2 * margin - labelWidth;
  let page = pdf.addPage([pageWidth, pageHeight]);
  let y = pageHeight - margin;
  const room = (height: number) => {
    if (y - height >= margin + 20) return;
    page = pdf.addPage([pageWidth, pageHeight]);
    y = pageHeight - margin;
  };
  page.drawText(writable(bold, title), { x: margin, y: y - 18, size: 18, font: bold });
  y -= 40;
  for (const section of sections) {
    room(40);
    page.drawText(writable(bold, section.title), { x: margin, y: y - 13, size: 13, font: bold });
    y -= 24;
    for (const line of section.lines) {
      const label = wrap(bold, writable(bold, line.label), 9, labelWidth - 10);
      const value = wrap(regular, writable(regular, line.value), 9, valueWidth);
      const height = Math.max(label.length, value.length) * 12 + 2;
      room(height);
      label.forEach((text, i) => {
        page.drawText(text, { x: margin, y: y - 9 - i * 12, size: 9, font: bold });
      });
      value.forEach((text, i) => {
        page.drawText(text, { x: margin + labelWidth, y: y - 9 - i * 12, size: 9, font: regular });
      });
      y -= height;
    }
    y -= 10;
  }
  const pages = pdf.getPages();
  pages.forEach((p, i) => {
    const text = writable(regular, `${footer} · ${i + 1}/${pages.length}`);
    p.drawText(text, { x: margin, y: margin - 20, size: 8, font: regular });
  });
  return pdf.save();
}
