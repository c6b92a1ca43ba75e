// Errors the local chains raise at start-up, with what to do about them.
export class PortInUseError extends Error {
  constructor(
    readonly port: number,
    readonly service: string,
    readonly setting: string,
  ) {
    super(
      `Port ${port} (${service}) is already in use on 127.0.0.1. Stop the process that holds it, or pick another port with ${setting}.`,
    );
    this.name = "PortInUseError";
  }
}

export class ChainStartError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ChainStartError";
  }
}
