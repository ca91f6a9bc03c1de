import { Placeholder } from '../../components/Placeholder';

export function CallScreen() {
  return <Placeholder screen="call" />;
}
