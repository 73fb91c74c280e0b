/**
 * The crypto worker's side of the API: the one Eden client (lib/api-client.ts) and the byte
 * calls, both sending the page's cookie. No toasts or sign-out handling here: the worker's
 * callers turn answers into coded errors the page decides about.
 */
import { createApiClient } from '../lib/api-client.ts';
import { byteCalls, sameOriginFetch } from '../lib/byte-calls.ts';

export const api = createApiClient(sameOriginFetch);
export const bytes = byteCalls(sameOriginFetch);
