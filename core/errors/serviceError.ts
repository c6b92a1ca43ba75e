// The base of every error the service defines (viem's BaseError is the model): each error is named after its
// class, and the error that caused it is kept as `cause`, so a caller decides by type, never by message
// text, and logs still show the underlying failure.

export class ServiceError extends Error {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
  }
}
