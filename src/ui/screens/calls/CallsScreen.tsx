import { Placeholder } from '../../components/Placeholder';

export function CallsScreen() {
  return <Placeholder screen="calls" />;
}
