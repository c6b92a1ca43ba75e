import { createServer } from "node:net";

export class PortInUseError extends Error {
  constructor(host: string, port: number, setting: string) {
    super(
      `Port ${port} on ${host} is already in use. Stop whatever listens there, or set ${setting} to a free port.`,
    );
    this.name = "PortInUseError";
  }
}

/** Resolves when nothing listens on host:port; rejects with a message naming the setting to change. */
export function assertPortFree(host: string, port: number, setting: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", (error: NodeJS.ErrnoException) => {
      reject(error.code === "EADDRINUSE" ? new PortInUseError(host, port, setting) : error);
    });
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}
