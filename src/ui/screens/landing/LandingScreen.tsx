import { Placeholder } from '../../components/Placeholder';

export function LandingScreen() {
  return <Placeholder screen="landing" />;
}
