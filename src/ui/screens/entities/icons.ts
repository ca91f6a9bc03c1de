/** Icons of the entity, smart-modules and API documentation screens, registered when their chunk loads. */
import type { IconPaths } from '@blueprintjs/icons';
import { registerIcons } from '../../icons';

registerIcons(
  import.meta.glob<IconPaths>(
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/{changes,clipboard,diagram-tree,endorsed,form,issue,minus,predictive-analysis,properties,reset,small-tick,time}.js',
    { import: 'default' },
  ),
  import.meta.glob<IconPaths>(
    '/node_modules/@blueprintjs/icons/lib/esm/generated/20px/paths/{changes,clipboard,diagram-tree,endorsed,form,issue,minus,predictive-analysis,properties,reset,small-tick,time}.js',
    { import: 'default' },
  ),
);
