/**
 * Attributes and the attribute sets' assignments, as readState reads them: the
 * per-version names and type values merged onto the master list, the details
 * (note, length) only of the attributes whose manifests manage them, and each
 * set's assigned attributes only for the sets whose manifests declare them.
 */
import type { ApiAttribute, ApiAttributeSetAttribute, PimApi } from "../api/types.js";
import type { Catalogue } from "../model/catalogue.js";
import type { RemoteAttribute, RemoteAttributeSet } from "../model/remote.js";
import * as N from "./normalise.js";
import type { VersionTexts } from "./started.js";
import { pmap } from "../base/promises.js";

/** The per-version lists' names and type values, onto the master list's records. */
export function mergeAttributeVersions(attrs: RemoteAttribute[], perVersion: ReadonlyArray<readonly [string, VersionTexts[]]>): RemoteAttribute[] {
  const byId = new Map(attrs.map((a) => [a.id, a]));
  for (const [name, list] of perVersion) {
    for (const va of list) {
      const a = byId.get(va.id);
      if (!a) continue;
      a.versions![name] = { ...(va.name ? { name: va.name } : {}) };
      const values = new Map(a.values.map((v) => [v.id, v]));
      for (const tv of va.values) {
        const m = values.get(tv.master);
        if (m) m.versions![name] = tv.value;
      }
    }
  }
  return attrs;
}

/** note and length come only with the single read: the attributes whose manifests manage them (all for export). */
export function attributesNeedingDetails(attrs: RemoteAttribute[], desired: Catalogue | undefined, full: boolean): RemoteAttribute[] {
  const desiredByName = new Map((desired?.attributes ?? []).map((a) => [a.name, a]));
  return attrs.filter((a) => {
    if (full) return true;
    const d = desiredByName.get(a.name) ?? desired?.attributes.find((x) => x.previous_names?.includes(a.name));
    return d !== undefined && (d.note !== undefined || d.length !== undefined || Object.values(d.versions ?? {}).some((v) => v.note !== undefined));
  });
}

/**
 * Attribute details (note, length; the note in each version) for the given
 * attributes, filled in place. Every request is independent of the others.
 */
export async function readAttributeDetails(api: PimApi, attributes: RemoteAttribute[], versions: ReadonlyArray<readonly [string, number]>): Promise<void> {
  await pmap(attributes, async (a) =>
    fillAttributeDetails(a, await Promise.all([api.getAttribute(a.id), ...versions.map(([, id]) => api.getAttribute(a.id, id))]), versions),
  );
}

/** Note and length from an attribute's single reads (`reads`: master, then each version in `versions`' order), in place. */
export function fillAttributeDetails(a: RemoteAttribute, reads: ApiAttribute[], versions: ReadonlyArray<readonly [string, number]>): void {
  const [detail, ...perVersion] = reads;
  a.note = N.text(detail!.note) ?? null;
  if (detail!.length !== undefined && detail!.length !== null) a.length = detail!.length;
  else a.length = null;
  versions.forEach(([name], i) => {
    a.versions![name] = { ...(a.versions![name] ?? {}), note: N.text(perVersion[i]!.note) ?? null };
  });
}

/** The sets whose assignments a plan needs: those whose manifests declare `attributes` (all when `all`). */
export function setsNeedingAssignments(sets: RemoteAttributeSet[], desired: Catalogue | undefined, all: boolean): RemoteAttributeSet[] {
  if (desired === undefined || all) return sets;
  const wantsMembers = new Set<string>();
  for (const s of desired.attribute_sets) if (s.attributes !== undefined) for (const n of [s.name, ...(s.previous_names ?? [])]) wantsMembers.add(n);
  return sets.filter((s) => wantsMembers.has(s.name));
}

/** Each set's assignment rows, as read (named by nameSetAssignments once every attribute they refer to is read). */
export type SetAssignmentRows = Array<[RemoteAttributeSet, ApiAttributeSetAttribute[]]>;

/** The assignment rows of each given set: one request per set. */
export async function readSetAssignmentRows(api: PimApi, sets: RemoteAttributeSet[]): Promise<SetAssignmentRows> {
  return pmap(sets, async (s) => [s, await api.listAttributeSetAttributes(s.id)] as [RemoteAttributeSet, ApiAttributeSetAttribute[]]);
}

/**
 * The attributes assigned to each set, by name, with the assignment row ids,
 * filled in place. An assignment of an attribute not in `attributeNames`
 * (not read) is left out.
 */
export function nameSetAssignments(rows: SetAssignmentRows, attributeNames: ReadonlyMap<number, string>): void {
  for (const [s, raw] of rows) {
    s.attributes = raw
      .map((r) => attributeNames.get(r.attribute_id))
      .filter((n): n is string => n !== undefined)
      .sort();
    s.assignment_ids = Object.fromEntries(raw.filter((r) => attributeNames.has(r.attribute_id)).map((r) => [attributeNames.get(r.attribute_id)!, r.id]));
  }
}
