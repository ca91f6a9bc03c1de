/** Icons of the signed-in shell and its screens, registered when the shell's chunk loads (see registerIcons). */
import type { IconPaths } from '@blueprintjs/icons';
import { registerIcons } from '../icons';

registerIcons(
  import.meta.glob<IconPaths>(
    '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/{add,applications,blank,briefcase,chat,chevron-left,chevron-right,code,cog,credit-card,cross-circle,dashboard,desktop,document,dot,double-chevron-left,download,duplicate,edit,envelope,exchange,eye-off,eye-open,floppy-disk,grid-view,history,id-number,inbox,link,log-out,manual,maximize,media,mobile-video,new-person,notifications,office,offline,people,person,phone,print,record,redo,search,send-message,settings,swap-horizontal,tick,time,timeline-bar-chart,trash,upload,user,video,volume-off,volume-up}.js',
    { import: 'default' },
  ),
  import.meta.glob<IconPaths>(
    '/node_modules/@blueprintjs/icons/lib/esm/generated/20px/paths/{add,applications,blank,briefcase,chat,chevron-left,chevron-right,code,cog,credit-card,cross-circle,dashboard,desktop,document,dot,double-chevron-left,download,duplicate,edit,envelope,exchange,eye-off,eye-open,floppy-disk,grid-view,history,id-number,inbox,link,log-out,manual,maximize,media,mobile-video,new-person,notifications,office,offline,people,person,phone,print,record,redo,search,send-message,settings,swap-horizontal,tick,time,timeline-bar-chart,trash,upload,user,video,volume-off,volume-up}.js',
    { import: 'default' },
  ),
);
