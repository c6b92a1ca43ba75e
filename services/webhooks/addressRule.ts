// Which IP addresses a webhook may be sent to: public unicast only. The ranges come from ipaddr.js (kept up
// to date with the IANA special-purpose registries); this file only names the rule that refuses an address.
import ipaddr from "ipaddr.js";

export type AddressRule =
  | "unspecified"
  | "loopback"
  | "private"
  | "link_local"
  | "cloud_metadata"
  | "cgnat"
  | "multicast"
  | "broadcast"
  | "reserved"
  | "ipv4_mapped"
  | "ipv4_compatible"
  | "ipv4_embedded"
  | "not_an_address";

/** Instance metadata services (AWS, GCP, Azure, OpenStack on 169.254.169.254; AWS's IPv6 one; Alibaba's). */
const CLOUD_METADATA = ["169.254.169.254", "fd00:ec2::254", "100.100.100.200"].map((text) =>
  ipaddr.parse(text).toNormalizedString(),
);

const IPV4_RULES: Record<string, AddressRule> = {
  unspecified: "unspecified",
  broadcast: "broadcast",
  multicast: "multicast",
  linkLocal: "link_local",
  loopback: "loopback",
  carrierGradeNat: "cgnat",
  private: "private",
};

const IPV6_RULES: Record<string, AddressRule> = {
  unspecified: "unspecified",
  linkLocal: "link_local",
  multicast: "multicast",
  loopback: "loopback",
  uniqueLocal: "private",
  deprecatedSiteLocal: "private",
  ipv4Mapped: "ipv4_mapped",
  rfc6145: "ipv4_mapped",
  rfc6052: "ipv4_embedded",
  "6to4": "ipv4_embedded",
  teredo: "ipv4_embedded",
};

/** Global unicast IPv6 space (2000::/3); everything outside it is unassigned or special. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3");

function ipv6Rule(address: ipaddr.IPv6): AddressRule | null {
  if (address.zoneId !== undefined) return "link_local";
  const [a, b, c, d, e, f] = address.parts;
  const firstBitsZero = a === 0 && b === 0 && c === 0 && d === 0 && e === 0 && f === 0;
  const range = address.range();
  // ::a.b.c.d (deprecated IPv4-compatible form) reaches the embedded IPv4 address on some stacks.
  if (firstBitsZero && range !== "unspecified" && range !== "loopback") return "ipv4_compatible";
  const named = IPV6_RULES[range];
  if (named !== undefined) return named;
  if (range !== "unicast" || !address.match(GLOBAL_UNICAST_V6)) return "reserved";
  return null;
}

/** Null when `text` is a public unicast address a webhook may reach; otherwise the rule that refuses it. */
export function refusedAddressRule(text: string): AddressRule | null {
  if (!ipaddr.isValid(text)) return "not_an_address";
  const address = ipaddr.parse(text);
  if (CLOUD_METADATA.includes(address.toNormalizedString())) return "cloud_metadata";
  if (address.kind() === "ipv6") return ipv6Rule(address as ipaddr.IPv6);
  const range = (address as ipaddr.IPv4).range();
  if (range === "unicast") return null;
  return IPV4_RULES[range] ?? "reserved";
}
