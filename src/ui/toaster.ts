/**
 * The studio's one toaster for success and error messages (docs/product/errors.md). Its code is a chunk of its own, loaded with
 * the first message, so the sign-in page does not carry it. A message already on screen is shown again in
 * its place, with its time renewed, rather than stacked under itself (e.g. the same setting saved twice).
 */
const toaster = () => import('./toasterOverlay').then((module) => module.toaster());

export async function showSuccess(message: string): Promise<void> {
  (await toaster()).show({ message, intent: 'success', icon: 'tick', timeout: 4000 }, `success:${message}`);
}

/** Something the user asked for did not happen yet but waits (e.g. for a second reviewer). */
export async function showWarning(message: string): Promise<void> {
  (await toaster()).show({ message, intent: 'warning', icon: 'time', timeout: 8000 }, `warning:${message}`);
}

export async function showError(message: string): Promise<void> {
  (await toaster()).show({ message, intent: 'danger', icon: 'error', timeout: 6000 }, `danger:${message}`);
}
