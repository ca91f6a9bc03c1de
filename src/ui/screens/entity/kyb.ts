/**
 * The business-entity (KYB) area as one chunk: the list, the entity screen and its documents page. One
 * module for the three lazy routes keeps the entry's list of lazy files short (the /login route budget).
 */
export { EntitiesScreen } from '../entities/EntitiesScreen';
export { EntityDocumentsScreen } from './EntityDocumentsScreen';
export { EntityScreen } from './EntityScreen';
