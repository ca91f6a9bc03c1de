/** Icons of the plan-and-payment tab and the return page, registered when their chunk loads. */
import type { IconPaths } from '@blueprintjs/icons';
import { registerIcons } from '../../icons';

registerIcons(
  import.meta.glob<IconPaths>(
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/{credit-card,envelope,document-open,time,shopping-cart,tick-circle,error,refresh,small-tick,warning-sign}.js',
    { import: 'default' },
  ),
  import.meta.glob<IconPaths>(
    '/node_modules/@blueprintjs/icons/lib/esm/generated/20px/paths/{credit-card,envelope,document-open,time,shopping-cart,tick-circle,error,refresh,small-tick,warning-sign}.js',
    { import: 'default' },
  ),
);
