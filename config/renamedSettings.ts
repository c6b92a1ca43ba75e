// Settings that were renamed: the old name is still read for one release, with a warning naming the new one.
// Their names now say what they hold (host lists, not URLs; the service's own schema, not a mirror's).

/** Old name → new name. */
export const RENAMED_SETTINGS = {
  BASE_URLS: "BASE_HOSTS",
  SANDBOX_URLS: "SANDBOX_HOSTS",
  PRODUCTION_URLS: "PRODUCTION_HOSTS",
  IDENTITY_MIRROR_SCHEMA: "SERVICE_SCHEMA",
} as const;

/** The environment with each old name's value under its new name (the new name wins), and a warning per old name set. */
export function withRenamedSettings(env: Record<string, string | undefined>): {
  env: Record<string, string | undefined>;
  warnings: string[];
} {
  const renamed = { ...env };
  const warnings: string[] = [];
  for (const [oldName, newName] of Object.entries(RENAMED_SETTINGS)) {
    const value = env[oldName];
    if (value === undefined || value === "") continue;
    delete renamed[oldName];
    if (env[newName] === undefined || env[newName] === "") {
      renamed[newName] = value;
      warnings.push(
        `${oldName} is renamed ${newName}: set ${newName} instead (${oldName} is read until the next release).`,
      );
    } else {
      warnings.push(
        `${oldName} is ignored: ${newName} is set (${oldName} was renamed ${newName}); remove ${oldName}.`,
      );
    }
  }
  return { env: renamed, warnings };
}
