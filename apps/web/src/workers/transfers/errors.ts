/** The one error of transfers (upload and download) the page sees, with its code. */
import { uploadErrorMessage } from '../../model/transfer-plan.ts';
import { CodedError } from '../coded-error.ts';

/**
 * An error whose message is fit to show (docs/product.md "Messages") and whose code survives the
 * RPC.
 */
export class TransferError extends CodedError {
  constructor(code: string, message: string) {
    super('TransferError', code, message);
  }
}

/**
 * docs/product.md "Messages" message for a failed upload answer, coded NO_SPACE, TOO_LARGE or
 * HTTP_<status>.
 */
export function statusError(status: number, retryAfter?: string | null): TransferError {
  const code = status === 402 ? 'NO_SPACE' : status === 405 || status === 413 ? 'TOO_LARGE' : `HTTP_${status}`;
  return new TransferError(code, uploadErrorMessage(status, retryAfter));
}

/** For helpers that take an error factory (listing-fetch.ts). */
export const transferError = (code: string, message: string) => new TransferError(code, message);
