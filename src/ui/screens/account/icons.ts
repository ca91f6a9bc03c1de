/** Icons of the create-account screen, registered when its chunk loads (see registerIcons). */
import type { IconPaths } from '@blueprintjs/icons';
import { registerIcons } from '../../icons';

registerIcons(
  import.meta.glob<IconPaths>(
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/{arrow-right,credit-card,envelope,new-person,office,video,exchange}.js',
    { import: 'default' },
  ),
  import.meta.glob<IconPaths>(
    '/node_modules/@blueprintjs/icons/lib/esm/generated/20px/paths/{arrow-right,credit-card,envelope,new-person,office,video,exchange}.js',
    { import: 'default' },
  ),
);
