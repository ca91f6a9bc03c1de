import { Placeholder } from '../../components/Placeholder';

export function ReturnScreen() {
  return <Placeholder screen="return" />;
}
