// The one SSRF rule for webhook receivers, applied at registration and again before every attempt: HTTPS,
// no credentials, IPv4 only in dotted-decimal form, and every address the host resolves to public
// (addressRule.ts). The addresses checked are the ones the attempt connects to (send.ts pins them), so a
// DNS answer that changes between the check and the connection cannot redirect a delivery.
import { lookup as dnsLookup } from "node:dns/promises";
import { isIPv4, isIPv6 } from "node:net";
import { ServiceError } from "../../core/errors/serviceError";
import { type AddressRule, refusedAddressRule } from "./addressRule";

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Every address a host name resolves to (the dependency tests replace to simulate DNS answers). */
export type HostLookup = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export interface ReceiverPolicy {
  /** A locally run service accepts http(s)://localhost, 127.0.0.1 and [::1] receivers (docs/webhooks.md). */
  allowLocalReceivers: boolean;
  lookup: HostLookup;
}

export type ReceiverRule =
  | AddressRule
  | "invalid_url"
  | "https_required"
  | "credentials_in_url"
  | "non_canonical_ipv4"
  | "unresolvable";

/** A receiver URL the rules refuse; `rule` names which. */
export class ReceiverRefusedError extends ServiceError {
  constructor(
    readonly rule: ReceiverRule,
    message: string,
  ) {
    super(message);
  }
}

/** The URL to send to and the checked addresses to connect to. */
export interface ReceiverTarget {
  url: URL;
  addresses: readonly ResolvedAddress[];
}

export const MAX_RECEIVER_URL_LENGTH = 2048;
const LOCAL_HOSTNAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

const ADDRESS_REASONS: Record<AddressRule, string> = {
  unspecified: "an unspecified address (0.0.0.0/8, ::)",
  loopback: "a loopback address",
  private: "a private address (RFC 1918 or IPv6 unique-local)",
  link_local: "a link-local address",
  cloud_metadata: "a cloud instance-metadata address",
  cgnat: "a carrier-grade NAT address (100.64.0.0/10)",
  multicast: "a multicast address",
  broadcast: "the broadcast address",
  reserved: "a reserved or documentation address",
  ipv4_mapped: "an IPv4-mapped IPv6 address",
  ipv4_compatible: "an IPv4-compatible IPv6 address",
  ipv4_embedded: "an IPv6 address embedding IPv4 (6to4, Teredo, NAT64)",
  not_an_address: "not an IP address",
};

export const systemLookup: HostLookup = async (hostname) => {
  const answers = await dnsLookup(hostname, { all: true, verbatim: true });
  return answers.map((answer) => ({ address: answer.address, family: answer.family === 6 ? 6 : 4 }));
};

/** The host exactly as written in the URL text (the URL parser rewrites 0x7f.1 or 2130706433 to 127.0.0.1). */
function writtenHost(text: string): string {
  const authority = /^[a-z][a-z0-9+.-]*:[\\/]*([^\\/?#]*)/i.exec(text)?.[1] ?? "";
  const host = authority.slice(authority.lastIndexOf("@") + 1);
  return (
    host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.replace(/:[^:]*$/, "")
  ).toLowerCase();
}

function refuse(rule: ReceiverRule, message: string): never {
  throw new ReceiverRefusedError(rule, `The webhook URL is refused (${rule}): ${message}`);
}

/** The parsed URL when its form is acceptable; refuses it naming the rule otherwise. */
export function acceptableReceiverUrl(text: string, allowLocalReceivers: boolean): URL {
  if (text.length > MAX_RECEIVER_URL_LENGTH)
    refuse("invalid_url", `it is longer than ${MAX_RECEIVER_URL_LENGTH} characters.`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return refuse("invalid_url", "it is not an absolute URL such as https://hooks.example.com/service.");
  }
  const local = allowLocalReceivers && LOCAL_HOSTNAMES.has(url.hostname);
  if (url.protocol !== "https:" && !(local && url.protocol === "http:")) {
    refuse(
      "https_required",
      allowLocalReceivers
        ? "use https:// (http:// is accepted only for localhost, 127.0.0.1 and [::1] on this locally run service)."
        : "use https://.",
    );
  }
  if (url.username !== "" || url.password !== "")
    refuse(
      "credentials_in_url",
      "remove the user name and password; authenticate deliveries by their signature.",
    );
  if (isIPv4(url.hostname) && writtenHost(text) !== url.hostname) {
    refuse("non_canonical_ipv4", `write the IPv4 address in dotted-decimal form (${url.hostname}).`);
  }
  url.hash = "";
  return url;
}

async function addressesOf(url: URL, lookup: HostLookup): Promise<readonly ResolvedAddress[]> {
  const bare = url.hostname.replace(/^\[|\]$/g, "");
  if (isIPv4(bare)) return [{ address: bare, family: 4 }];
  if (isIPv6(bare)) return [{ address: bare, family: 6 }];
  let answers: readonly ResolvedAddress[];
  try {
    answers = await lookup(bare);
  } catch {
    answers = [];
  }
  if (answers.length === 0) refuse("unresolvable", `${bare} does not resolve to any address.`);
  return answers;
}

/** The checked target of a receiver URL; throws ReceiverRefusedError naming the rule that refuses it. */
export async function checkedReceiver(text: string, policy: ReceiverPolicy): Promise<ReceiverTarget> {
  const url = acceptableReceiverUrl(text, policy.allowLocalReceivers);
  const local = policy.allowLocalReceivers && LOCAL_HOSTNAMES.has(url.hostname);
  const addresses = await addressesOf(url, policy.lookup);
  for (const { address } of addresses) {
    const rule = refusedAddressRule(address);
    if (rule === null || (local && rule === "loopback")) continue;
    refuse(
      rule,
      `${url.hostname} resolves to ${address}, ${ADDRESS_REASONS[rule]}; webhooks go to public addresses only.`,
    );
  }
  return { url, addresses };
}
