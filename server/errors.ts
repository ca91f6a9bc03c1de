/** An error that becomes `{ detail }` with its status code (docs/product/errors.md). */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly detail: string,
    /** More fields of the answer body, next to `detail` (e.g. the forced two-factor setup's token). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(detail);
    this.name = 'HttpError';
  }
}

export const DETAILS = {
  forbidden: 'You do not have permission to perform this action',
  notAuthenticated: 'Authentication credentials were not provided.',
  invalidToken: 'Token is invalid or expired',
  notFound: 'Not found.',
  invalidCredentials: 'Invalid Credentials',
  otpRequired: 'OTP Required',
  invalidOtp: 'Invalid OTP',
  passwordResetRequired: 'Password Reset Required',
  twoFactorResetRequired: 'Two Factor Reset Required',
  tooManyAttempts: 'Too many login attempts, try again later',
  tooManyCodeRequests: 'Too many code requests, try again later',
  wrongPassword: 'Wrong password',
  invalidCode: 'Invalid code',
  facePhotoRequired: 'Face Photo Required',
  faceNotMatched: 'Face Not Matched',
  faceLoginUnavailable: 'Face Login Unavailable',
  invalidPhoto: 'The photo must be a JPEG or PNG image of at most 5 MB',
  serverError: 'An error occured',
} as const;

export const notFound = () => new HttpError(404, DETAILS.notFound);
export const forbidden = (detail: string = DETAILS.forbidden) => new HttpError(403, detail);
export const conflict = (detail: string) => new HttpError(409, detail);
export const unauthorized = (detail: string = DETAILS.invalidToken) => new HttpError(401, detail);
export const badRequest = (detail: string, extra?: Record<string, unknown>) =>
  new HttpError(400, detail, extra);
