import { Placeholder } from '../../components/Placeholder';

export function SettingsScreen() {
  return <Placeholder screen="settings" />;
}
