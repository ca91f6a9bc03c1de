import { Placeholder } from '../../components/Placeholder';

export function ResetPasswordScreen() {
  return <Placeholder screen="resetPassword" />;
}
