import { Placeholder } from '../../components/Placeholder';

export function EntitiesScreen() {
  return <Placeholder screen="entities" />;
}
