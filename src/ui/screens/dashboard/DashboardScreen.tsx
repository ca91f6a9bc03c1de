import { Placeholder } from '../../components/Placeholder';

export function DashboardScreen() {
  return <Placeholder screen="dashboard" />;
}
