import { Placeholder } from '../../components/Placeholder';

export function DocumentScreen() {
  return <Placeholder screen="document" />;
}
