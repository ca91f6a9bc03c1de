import { Placeholder } from '../../components/Placeholder';

export function VideoScreen() {
  return <Placeholder screen="video" />;
}
