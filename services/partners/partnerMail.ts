// The mails a partner receives: plain text, with the exact command to run (a link a mail scanner may open
// would consume a single-use token, so the token is confirmed with a POST, never by opening a URL).
import type { MailMessage } from "../mail";

export interface VerificationMail {
  to: string;
  organization: string | null;
  partnerId: string;
  token: string;
  expiresAt: Date;
  publicUrl: string;
}

export function verificationMail(mail: VerificationMail): MailMessage {
  const body = JSON.stringify({ token: mail.token });
  return {
    to: mail.to,
    subject: "Verify your email for your sandbox API key",
    text: [
      `Hello${mail.organization ? ` ${mail.organization}` : ""},`,
      "",
      `confirm that ${mail.to} is the contact of partner ${mail.partnerId} (rotation notices and production`,
      "access are mailed here). Run:",
      "",
      `  curl -X POST ${mail.publicUrl}/api/v1/partners/verify-email -H 'content-type: application/json' -d '${body}'`,
      "",
      `Verification token: ${mail.token}`,
      `It works once and expires at ${mail.expiresAt.toISOString()}.`,
      "",
      "If you did not create a sandbox key, ignore this mail.",
    ].join("\n"),
  };
}

export interface RotationMail {
  to: string;
  partnerId: string;
  oldKeyId: string;
  newKeyId: string;
  at: Date;
}

export function rotationMail(mail: RotationMail): MailMessage {
  return {
    to: mail.to,
    subject: "Your sandbox API key was rotated",
    text: [
      `The sandbox key ${mail.oldKeyId} of partner ${mail.partnerId} was rotated at ${mail.at.toISOString()}.`,
      `Its replacement is ${mail.newKeyId}; the old key now answers 401 key_revoked.`,
      "",
      "If you did not rotate it, reply to this mail at once: whoever rotated it holds the new key.",
    ].join("\n"),
  };
}
