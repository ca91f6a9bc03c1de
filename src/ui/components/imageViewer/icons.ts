/** The image viewer's own icons, registered when its chunk loads (see registerIcons). */
import type { IconPaths } from '@blueprintjs/icons';
import { registerIcons } from '../../icons';

registerIcons(
  import.meta.glob<IconPaths>(
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/{rotate-page,share,zoom-in,zoom-out}.js',
    { import: 'default' },
  ),
  import.meta.glob<IconPaths>(
    '/node_modules/@blueprintjs/icons/lib/esm/generated/20px/paths/{rotate-page,share,zoom-in,zoom-out}.js',
    { import: 'default' },
  ),
);
