/**
 * The studio's one toaster for success and error messages (§8). Its code is a chunk of its own, loaded with
 * the first message, so the sign-in page does not carry it.
 */
const toaster = () => import('./toasterOverlay').then((module) => module.toaster());

export async function showSuccess(message: string): Promise<void> {
  (await toaster()).show({ message, intent: 'success', icon: 'tick', timeout: 4000 });
}

export async function showError(message: string): Promise<void> {
  (await toaster()).show({ message, intent: 'danger', icon: 'error', timeout: 6000 });
}
