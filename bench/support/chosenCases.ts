// A suite's cases chosen by an environment variable: a comma-separated subset of `cases`, all of them when unset.

export function chosenCases<Case extends string>(variable: string, cases: readonly Case[]): Set<Case> {
  const asked = process.env[variable]?.split(",").map((name) => name.trim()) ?? [...cases];
  for (const name of asked)
    if (!(cases as readonly string[]).includes(name))
      throw new Error(`${variable}: unknown case "${name}" (${cases.join(", ")})`);
  return new Set(asked as Case[]);
}
