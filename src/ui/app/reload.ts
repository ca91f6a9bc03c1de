/** Reloads the page (logout, a logout in another tab, a failed chunk). One place, so tests can observe it. */
export function reloadPage(): void {
  window.location.reload();
}
