import { Placeholder } from '../../components/Placeholder';

export function SwaggerScreen() {
  return <Placeholder screen="swagger" />;
}
