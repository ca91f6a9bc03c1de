import { Placeholder } from '../../components/Placeholder';

export function ProfileScreen() {
  return <Placeholder screen="profile" />;
}
