import { Placeholder } from '../../components/Placeholder';

export function EntityDocumentsScreen() {
  return <Placeholder screen="entityDocuments" />;
}
