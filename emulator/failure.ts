/**
 * A refusal by the emulated service. Action code throws it; each form turns it into its own
 * failure body (Form A `{status:'failed', reason}`, Form B `{status:'error', message}`).
 */
export class ServiceFailure extends Error {
  readonly httpStatus: number;

  constructor(httpStatus: number, reason: string) {
    super(reason);
    this.httpStatus = httpStatus;
  }
}

export const INVALID_API_KEY = 'Invalid API key';

export function fail(httpStatus: number, reason: string): never {
  throw new ServiceFailure(httpStatus, reason);
}
