// Reads partner mail as a developer would: the .eml files the embedded default writes, or the messages a local
// SMTP server (smtp-server) received. Bodies are decoded from quoted-printable, as a mail client would.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SMTPServer } from "smtp-server";

/** The text of a raw message with quoted-printable soft breaks and escapes undone. */
export function decodedMail(raw: string): string {
  return raw
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/** Every .eml file in the folder, oldest first, decoded. */
export function emlMessages(dir: string): string[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith(".eml"))
    .sort()
    .map((file) => decodedMail(readFileSync(join(dir, file), "utf8")));
}

/** The verification token in the newest message to `to`. */
export function tokenMailedTo(messages: readonly string[], to: string): string {
  const message = [...messages]
    .reverse()
    .find((text) => text.toLowerCase().includes(`to: ${to.toLowerCase()}`));
  const token = message?.match(/evt_[A-Za-z0-9_-]{43}/)?.[0];
  if (token === undefined) throw new Error(`no verification token was mailed to ${to}`);
  return token;
}

/** A local SMTP server that keeps every message it receives. */
export class LocalSmtpServer {
  readonly messages: string[] = [];
  private readonly server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData: (stream, _session, callback) => {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        this.messages.push(decodedMail(Buffer.concat(chunks).toString("utf8")));
        callback();
      });
    },
  });

  /** Listens on a free port of 127.0.0.1; returns the smtp:// URL. */
  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    const address = this.server.server.address();
    const port = typeof address === "object" && address !== null ? address.port : 0;
    return `smtp://127.0.0.1:${port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
