import { Placeholder } from '../../components/Placeholder';

export function CompanySettingsScreen() {
  return <Placeholder screen="companySettings" />;
}
