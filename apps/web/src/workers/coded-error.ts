/** A worker error whose `code` survives the RPC (lib/worker-rpc.ts keeps name, message and code). */
export class CodedError extends Error {
  readonly code: string;
  constructor(name: string, code: string, message: string) {
    super(message);
    this.name = name;
    this.code = code;
  }
}
