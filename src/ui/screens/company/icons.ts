/** Icons of the company settings screen, registered when its chunk loads (see registerIcons). */
import type { IconPaths } from '@blueprintjs/icons';
import { registerIcons } from '../../icons';

registerIcons(
  import.meta.glob<IconPaths>(
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/{eye-open,eye-off,play,send-message,repeat,history,exchange,lock,arrow-up,arrow-down,reset}.js',
    { import: 'default' },
  ),
  import.meta.glob<IconPaths>(
    '/node_modules/@blueprintjs/icons/lib/esm/generated/20px/paths/{eye-open,eye-off,play,send-message,repeat,history,exchange,lock,arrow-up,arrow-down,reset}.js',
    { import: 'default' },
  ),
);
