import { Placeholder } from '../../components/Placeholder';

export function AmlRecordDetailScreen() {
  return <Placeholder screen="amlRecordDetail" />;
}
