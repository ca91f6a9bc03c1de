import { Placeholder } from '../../components/Placeholder';

export function LoginScreen() {
  return <Placeholder screen="login" />;
}
