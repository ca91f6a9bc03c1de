/** Runtime configuration, read from `window.__STUDIO_CONFIG__` (set by /runtime-config.js), so one build serves any deployment. */
export interface StudioConfig {
  /** Address of the login host (/api/v1). Empty: the studio's own origin. */
  loginHost: string;
  /** Address of the payment service (GET /config and GET /industry on a separate host). */
  paymentServiceUrl: string;
}

declare global {
  interface Window {
    __STUDIO_CONFIG__?: Partial<StudioConfig>;
  }
}

export function studioConfig(): StudioConfig {
  const given = typeof window === 'undefined' ? undefined : window.__STUDIO_CONFIG__;
  const origin = typeof location === 'undefined' ? '' : location.origin;
  return { loginHost: given?.loginHost || origin, paymentServiceUrl: given?.paymentServiceUrl || origin };
}
