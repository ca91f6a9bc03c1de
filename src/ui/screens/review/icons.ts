/** Icons of the review desk and the profile's case panel, registered when their chunk loads. */
import type { IconPaths } from '@blueprintjs/icons';
import { registerIcons } from '../../icons';

registerIcons(
  import.meta.glob<IconPaths>(
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/{inbox,step-forward,hand-right,person,cross,swap-horizontal,time,pause,play,endorsed,undo,take-action,eye-open,people,predictive-analysis,video}.js',
    { import: 'default' },
  ),
  import.meta.glob<IconPaths>(
    '/node_modules/@blueprintjs/icons/lib/esm/generated/20px/paths/{inbox,step-forward,hand-right,person,cross,swap-horizontal,time,pause,play,endorsed,undo,take-action,eye-open,people,predictive-analysis,video}.js',
    { import: 'default' },
  ),
);
