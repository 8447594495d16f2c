// Small facts the suites share.
export { MISSING_PET_ID, MISSING_PET_IDS } from '../../lib/models.ts';
