import { Placeholder } from '../../components/Placeholder';

export function SmartModulesScreen() {
  return <Placeholder screen="smartModules" />;
}
