/**
 * Whether this page can use passkeys, apart from the API calls of passkeys: the sign-in page draws its
 * passkey button before its HTTP client has loaded.
 */
const IP_HOST = /^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-f:.]+\])$/i;

/**
 * Whether this page can use passkeys: the browser has WebAuthn and the studio is open at a host name
 * (browsers refuse WebAuthn on IP addresses such as 127.0.0.1; the demo's passkeys live on localhost).
 */
export function passkeysAvailable(): boolean {
  return (
    typeof window !== 'undefined' &&
    typeof window.PublicKeyCredential === 'function' &&
    !IP_HOST.test(window.location.hostname)
  );
}
