// Which environment a request's host belongs to. Hosts are configuration (BASE_HOSTS, SANDBOX_HOSTS,
// PRODUCTION_HOSTS); a list entry without a port matches that host on any port.
import type { Environment } from "../../core/environment";

export type HostClass = "canonical" | Environment;

export interface HostLists {
  base: readonly string[];
  sandbox: readonly string[];
  production: readonly string[];
}

function listed(list: readonly string[], host: string): boolean {
  const name = host.replace(/:\d+$/, "");
  return list.some((entry) => entry === host || entry === name);
}

/**
 * The class of a Host header value. Hosts in no list are treated as canonical (both key types, routed by
 * prefix; public data from production), which is what a direct address such as 127.0.0.1:8787 means.
 */
export function hostClassOf(hostHeader: string | undefined, hosts: HostLists): HostClass {
  const host = (hostHeader ?? "").trim().toLowerCase();
  if (listed(hosts.sandbox, host)) return "sandbox";
  if (listed(hosts.production, host)) return "production";
  return "canonical";
}

/** The dataset public routes answer from: the sandbox host reads sandbox data, every other host production. */
export function hostEnvironmentOf(hostClass: HostClass): Environment {
  return hostClass === "sandbox" ? "sandbox" : "production";
}
