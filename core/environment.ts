// The two isolated environments. They never share data, signing keys, state or rate limits.
export const ENVIRONMENTS = ["sandbox", "production"] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

export function isEnvironment(value: unknown): value is Environment {
  return value === "sandbox" || value === "production";
}
