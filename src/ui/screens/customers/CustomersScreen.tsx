import { Placeholder } from '../../components/Placeholder';

export function CustomersScreen() {
  return <Placeholder screen="customers" />;
}
