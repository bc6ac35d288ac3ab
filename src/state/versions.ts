/** Language version names to ids, as the tenant's channels and the config's map give them. */
import type { Channel } from "../model/remote.js";
import type { SourceLocation } from "../model/catalogue.js";
import { PimctlError, PimctlErrors } from "../errors.js";

/**
 * Version name -> id: the channels publish (version_name, version_id) and are
 * the truth; the config's `versions:` only fills names no channel publishes.
 * A config entry that contradicts a channel is an error at its line (`at`)
 * naming both, never a silent override (texts would be written into the wrong
 * language): a name a channel publishes with another id, or an id a channel
 * publishes for another name.
 */
export function resolveVersionIds(
  channels: Channel[],
  versionMap: Record<string, number> | undefined,
  wanted: string[],
  at: Readonly<Record<string, SourceLocation>> = {},
): { ids: Record<string, number>; unknown: string[] } {
  const known: Record<string, number> = {};
  const publishedBy: Record<string, string> = {};
  // Version id -> the channel and the name it publishes that id as (the first channel, by id).
  const byId = new Map<number, { channel: string; name: string }>();
  for (const c of [...channels].sort((a, b) => a.id - b.id)) {
    if (c.version_id !== 0 && c.version_name) {
      known[c.version_name] = c.version_id;
      publishedBy[c.version_name] = c.channel_name;
      if (!byId.has(c.version_id)) byId.set(c.version_id, { channel: c.channel_name, name: c.version_name });
    }
  }
  const conflicts: PimctlError[] = [];
  for (const [name, id] of Object.entries(versionMap ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const said: string[] = [];
    if (known[name] !== undefined && known[name] !== id)
      said.push(`the tenant's channel "${publishedBy[name]}" publishes "${name}" as version id ${known[name]}`);
    const other = byId.get(id);
    if (other && other.name !== name)
      said.push(`${said.length ? "and" : "the tenant's"} channel "${other.channel}" publishes version id ${id} as "${other.name}"`);
    if (!said.length) {
      known[name] ??= id;
      continue;
    }
    const fix =
      known[name] !== undefined
        ? `remove "${name}" from versions: (the channels already say it), or correct the id to ${known[name]}`
        : `correct the id of "${name}": ${id} is "${other!.name}" in this tenant`;
    conflicts.push(
      new PimctlError("config", `versions: in pimctl.yaml maps language version "${name}" to id ${id}, but ${said.join(", ")}`, {
        ...(at[name] ? { location: at[name] } : {}),
        details: [fix],
      }),
    );
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
