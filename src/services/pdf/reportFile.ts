/** Makes the report's PDF file: the fonts, the page images (expanded report) and the drawing. */
import { loadReportImages, type ReportData } from '../api/profileReport';
import { loadReportFonts } from './reportFonts';
import type { ReportModel } from './reportModel';
import { buildReportPdf } from './reportPdf';

export async function makeReportPdf(
  data: ReportData,
  model: ReportModel,
  footer: (page: number, pages: number) => string,
  { signal }: { signal?: AbortSignal } = {},
): Promise<Blob> {
  const [fonts, images] = await Promise.all([
    loadReportFonts(),
    data.kind === 'expanded' ? loadReportImages(data.documents, { signal }) : new Map(),
  ]);
  const bytes = buildReportPdf({ model, fonts, images, footer });
  return new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/pdf' });
}

/** The file name of a profile's report. */
export const reportFileName = (profileId: number, kind: ReportData['kind']) =>
  `profile-${profileId}-${kind}.pdf`;
