/**
 * Where the create-account flow keeps its place: the machine's persisted snapshot in this tab's
 * session storage, so a reload or the round trip through the hosted checkout goes on at the same step. Only
 * steady steps and steps still loading a read are kept (never one with a write under way), so a restored flow
 * never repeats a write from the middle; the password never enters the snapshot.
 */
const KEY = 'studio.createAccount';
const FINISHING_KEY = 'studio.createAccount.finishing';
/** Bumped when the machine's states change shape: an older snapshot is dropped. */
const VERSION = 2;

function storage(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null;
  }
}

export function loadSignupSnapshot(): unknown {
  try {
    const stored = storage()?.getItem(KEY);
    if (!stored) return undefined;
    const parsed = JSON.parse(stored) as { version?: number; snapshot?: unknown };
    return parsed.version === VERSION ? parsed.snapshot : undefined;
  } catch {
    return undefined;
  }
}

export function saveSignupSnapshot(snapshot: unknown): void {
  try {
    storage()?.setItem(KEY, JSON.stringify({ version: VERSION, snapshot }));
  } catch {
    // Not kept: a reload starts the flow again.
  }
}

export function clearSignup(): void {
  try {
    storage()?.removeItem(KEY);
    storage()?.removeItem(FINISHING_KEY);
  } catch {
    // Nothing kept.
  }
}

/**
 * The flow has just signed the new admin in and shows its "first steps": /create-account stays open to them
 * although they are signed in (public pages send signed-in users to /). Marked before the account is stored.
 */
export function markSignupFinishing(): void {
  try {
    storage()?.setItem(FINISHING_KEY, '1');
  } catch {
    // The first steps are skipped: the guard sends the new admin to the studio.
  }
}

export function signupFinishing(): boolean {
  try {
    return storage()?.getItem(FINISHING_KEY) === '1';
  } catch {
    return false;
  }
}
