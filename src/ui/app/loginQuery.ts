/**
 * The queries of the sign-in page's URL that other parts of the studio set: plain names, so the sign-in
 * screen, the shell and the guards share them without importing one another.
 */

/** The query that lets a signed-in user open the login page to add another company's account. */
export const ADD_ACCOUNT_QUERY = 'add-account';
/** On /login after a session ended: why (a SessionEndReason of contract/sessions.ts, or unknown). */
export const SESSION_ENDED_QUERY = 'ended';
