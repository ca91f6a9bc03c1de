/** An error that becomes `{ detail }` with its status code (SPEC §8). */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly detail: string,
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
  serverError: 'An error occured',
} as const;

export const notFound = () => new HttpError(404, DETAILS.notFound);
export const forbidden = (detail: string = DETAILS.forbidden) => new HttpError(403, detail);
export const unauthorized = (detail: string = DETAILS.invalidToken) => new HttpError(401, detail);
export const badRequest = (detail: string) => new HttpError(400, detail);
