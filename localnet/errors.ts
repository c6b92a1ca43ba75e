// Errors the local chains raise at start-up, with what to do about them.
export class ChainStartError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ChainStartError";
  }
}
