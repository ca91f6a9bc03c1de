import { Placeholder } from '../../components/Placeholder';

export function EntityScreen() {
  return <Placeholder screen="entity" />;
}
