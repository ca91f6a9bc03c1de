import { Placeholder } from '../../components/Placeholder';

export function PdfBasicScreen() {
  return <Placeholder screen="pdfBasic" />;
}
