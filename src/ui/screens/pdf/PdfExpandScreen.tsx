import { ReportScreen } from './ReportScreen';

/** pdf-expand/:id: the basic report plus documents, AML, calls and notes. */
export function PdfExpandScreen() {
  return <ReportScreen kind="expanded" />;
}
