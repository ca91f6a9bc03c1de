/** Icons of the signed-in shell and its screens, registered when the shell's chunk loads (see registerIcons). */
import type { IconPaths } from '@blueprintjs/icons';
import { registerIcons } from '../icons';

registerIcons(
  import.meta.glob<IconPaths>(
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/{add,applications,blank,briefcase,chevron-left,chevron-right,code,cog,credit-card,dashboard,document,dot,download,duplicate,edit,floppy-disk,id-number,inbox,link,log-out,manual,mobile-video,new-person,notifications,office,offline,people,person,phone,print,record,search,settings,swap-horizontal,tick,time,timeline-bar-chart,trash,upload,user,video}.js',
    { import: 'default' },
  ),
  import.meta.glob<IconPaths>(
    '/node_modules/@blueprintjs/icons/lib/esm/generated/20px/paths/{add,applications,blank,briefcase,chevron-left,chevron-right,code,cog,credit-card,dashboard,document,dot,download,duplicate,edit,floppy-disk,id-number,inbox,link,log-out,manual,mobile-video,new-person,notifications,office,offline,people,person,phone,print,record,search,settings,swap-horizontal,tick,time,timeline-bar-chart,trash,upload,user,video}.js',
    { import: 'default' },
  ),
);
