import { Placeholder } from '../../components/Placeholder';

export function AmlHistoryScreen() {
  return <Placeholder screen="amlHistory" />;
}
