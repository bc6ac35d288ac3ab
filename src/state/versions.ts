/** Language version names to ids, as the tenant's channels and the config's map give them. */
import type { Channel } from "../model/remote.js";
import { PimctlError, PimctlErrors } from "../errors.js";

/**
 * Version name -> id: the channels publish (version_name, version_id) and are
 * the truth; the config's `versions:` only fills names no channel publishes.
 * A config id that contradicts a channel is an error naming both ids, never a
 * silent override (texts would be written into the wrong language).
 */
export function resolveVersionIds(
  channels: Channel[],
  versionMap: Record<string, number> | undefined,
  wanted: string[],
): { ids: Record<string, number>; unknown: string[] } {
  const known: Record<string, number> = {};
  const publishedBy: Record<string, string> = {};
  for (const c of channels) {
    if (c.version_id !== 0 && c.version_name) {
      known[c.version_name] = c.version_id;
      publishedBy[c.version_name] = c.channel_name;
    }
  }
  const conflicts: PimctlError[] = [];
  for (const [name, id] of Object.entries(versionMap ?? {})) {
    if (known[name] === undefined) known[name] = id;
    else if (known[name] !== id) {
      conflicts.push(
        new PimctlError(
          "config",
          `versions: in pimctl.yaml maps language version "${name}" to id ${id}, but the tenant's channel "${publishedBy[name]}" publishes ` +
            `"${name}" as version id ${known[name]}`,
          {
            details: [`remove "${name}" from versions: (the channels already say it), or correct the id to ${known[name]}`],
          },
        ),
      );
    }
  }
  if (conflicts.length) throw new PimctlErrors(conflicts);
  const ids: Record<string, number> = {};
  const unknown: string[] = [];
  for (const w of wanted) {
    if (known[w] === undefined) unknown.push(w);
    else ids[w] = known[w];
  }
  return { ids, unknown };
}
