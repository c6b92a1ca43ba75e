// Block-explorer links of a chain: URL templates in the deployment manifest (`explorer` of a chain's entry), and
// the one rule that fills them. Local chains have none, and then nothing links anywhere.
import { z } from "zod";

const template = (placeholder: string) =>
  z
    .string()
    .regex(/^https:\/\/[^\s]+$/, "must be an https URL")
    .refine((url) => url.includes(placeholder), `must contain ${placeholder}`);

/** e.g. `{ tx: "https://basescan.org/tx/{hash}", address: "https://basescan.org/address/{address}" }`. */
export const explorerTemplatesSchema = z.object({
  tx: template("{hash}"),
  address: template("{address}"),
});

export type ExplorerTemplates = z.infer<typeof explorerTemplatesSchema>;

/** The template with its placeholder replaced by `value`, URL-encoded (a hash or an address never needs it). */
function filled(template: string, placeholder: string, value: string): string {
  return template.replaceAll(placeholder, encodeURIComponent(value));
}

/** Where an explorer shows a transaction. */
export function transactionUrl(templates: ExplorerTemplates, hash: string): string {
  return filled(templates.tx, "{hash}", hash);
}

/** Where an explorer shows an address (an EVM contract or wallet, a Solana account). */
export function addressUrl(templates: ExplorerTemplates, address: string): string {
  return filled(templates.address, "{address}", address);
}
