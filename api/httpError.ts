/** An error a route throws to answer with the `{ error: { code, message, details } }` envelope. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: unknown = null,
  ) {
    super(message);
    this.name = "HttpError";
  }
}
