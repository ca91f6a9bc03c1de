import { Placeholder } from '../../components/Placeholder';

export function AdminScreen() {
  return <Placeholder screen="admin" />;
}
