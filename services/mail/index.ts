// Partner mail through nodemailer, one module with two transports chosen by configuration: SMTP when an
// SMTP URL is set, else nodemailer's buffer transport writing each message as an .eml file into a folder (the
// embedded default), so a developer reads the mail, and its token, from DATA_DIR/mail/.
import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createTransport } from "nodemailer";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface SentMail {
  messageId: string;
  /** The .eml file the message was written to; absent when it went out over SMTP. */
  file?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<SentMail>;
  close(): void;
}

export interface MailerSettings {
  /** smtp:// or smtps:// with credentials; undefined: write .eml files into `directory`. */
  smtpUrl: string | undefined;
  directory: string;
  from: string;
}

// A mail server that hangs must not hold a partner's request for minutes (nodemailer's defaults).
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

function smtpMailer(url: string, from: string): Mailer {
  const transport = createTransport({ url, ...SMTP_TIMEOUTS }, { from });
  return {
    async send(message) {
      const info = await transport.sendMail(message);
      return { messageId: info.messageId };
    },
    close: () => transport.close(),
  };
}

/** `2026-11-23T22-30-01-123Z-<8 hex>.eml`: sorts by time, never collides, safe on every file system. */
function emlName(now: Date): string {
  return `${now.toISOString().replace(/[:.]/g, "-")}-${randomBytes(4).toString("hex")}.eml`;
}

function fileMailer(directory: string, from: string, log: (line: string) => void): Mailer {
  const transport = createTransport({ streamTransport: true, buffer: true, newline: "unix" }, { from });
  return {
    async send(message) {
      const info = await transport.sendMail(message);
      await mkdir(directory, { recursive: true, mode: 0o700 });
      const file = join(directory, emlName(new Date()));
      // The message carries one-time tokens: readable by this user only.
      await writeFile(file, info.message as Buffer, { mode: 0o600 });
      log(`mail "${message.subject}" written to ${file}`);
      return { messageId: info.messageId, file };
    },
    close: () => transport.close(),
  };
}

export function createMailer(settings: MailerSettings, log: (line: string) => void): Mailer {
  return settings.smtpUrl === undefined
    ? fileMailer(settings.directory, settings.from, log)
    : smtpMailer(settings.smtpUrl, settings.from);
}
