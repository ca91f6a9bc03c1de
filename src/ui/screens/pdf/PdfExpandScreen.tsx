import { Placeholder } from '../../components/Placeholder';

export function PdfExpandScreen() {
  return <Placeholder screen="pdfExpand" />;
}
