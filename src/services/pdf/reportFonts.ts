/**
 * The report's font files (DejaVu Sans, from the dejavu-fonts-ttf package; Bitstream Vera licence with
 * DejaVu changes in the public domain): built as assets by Vite and read only when a PDF is made.
 */

import regularUrl from 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf?url';
import boldUrl from 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf?url';
import ky from 'ky';
import { loadChunk } from '../chunks';
import type { ReportFonts } from './reportPdf';

let loading: Promise<ReportFonts> | null = null;

const read = (url: string) =>
  loadChunk(async () => new Uint8Array(await ky.get(url, { retry: { limit: 2 } }).arrayBuffer()));

/** Both font files (once per page load); a failure is a ChunkLoadError and is tried again next time. */
export function loadReportFonts(): Promise<ReportFonts> {
  loading ??= Promise.all([read(regularUrl), read(boldUrl)]).then(
    ([regular, bold]) => ({ regular, bold }),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}
