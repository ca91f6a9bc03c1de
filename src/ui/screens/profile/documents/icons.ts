/** Icons of the documents screens, registered when their chunk loads (see registerIcons). */
import type { IconPaths } from '@blueprintjs/icons';
import { registerIcons } from '../../../icons';

registerIcons(
  import.meta.glob<IconPaths>(
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/{archive,ban-circle,exchange,outdated,trash,unarchive,upload}.js',
    { import: 'default' },
  ),
  import.meta.glob<IconPaths>(
    '/node_modules/@blueprintjs/icons/lib/esm/generated/20px/paths/{archive,ban-circle,exchange,outdated,trash,unarchive,upload}.js',
    { import: 'default' },
  ),
);
