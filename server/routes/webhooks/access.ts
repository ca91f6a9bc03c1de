import { need } from '../../http/access';

/** The OpenAPI tag of every webhook route. */
export const tags = ['webhooks'];
export const access = need('view_company_page');
/** Writes, secrets and tokens: Admins only. */
export const adminAccess = need('view_company_page', { admin: true });
