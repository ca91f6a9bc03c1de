import { Placeholder } from '../../components/Placeholder';

export function CreateAccountScreen() {
  return <Placeholder screen="createAccount" />;
}
