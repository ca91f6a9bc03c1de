import { ReportScreen } from './ReportScreen';

/** pdf-basic/:id: identity and status. */
export function PdfBasicScreen() {
  return <ReportScreen kind="basic" />;
}
