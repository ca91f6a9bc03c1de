/** Icons of the signed-in shell and its screens, registered when the shell's chunk loads (see registerIcons). */
import type { IconPaths } from '@blueprintjs/icons';
import { registerIcons } from '../icons';

registerIcons(
  import.meta.glob<IconPaths>(
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/{add,applications,blank,dot,notifications,tick,briefcase,chevron-left,chevron-right,code,cog,credit-card,dashboard,document,download,duplicate,edit,floppy-disk,id-number,link,log-out,manual,mobile-video,new-person,office,offline,people,person,phone,print,record,search,settings,swap-horizontal,time,timeline-bar-chart,trash,upload,user,video}.js',
    { import: 'default' },
  ),
  import.meta.glob<IconPaths>(
    '/node_modules/@blueprintjs/icons/lib/esm/generated/20px/paths/{add,applications,blank,dot,notifications,tick,briefcase,chevron-left,chevron-right,code,cog,credit-card,dashboard,document,download,duplicate,edit,floppy-disk,id-number,link,log-out,manual,mobile-video,new-person,office,offline,people,person,phone,print,record,search,settings,swap-horizontal,time,timeline-bar-chart,trash,upload,user,video}.js',
    { import: 'default' },
  ),
);
