/**
 * `versions:` in pimctl.yaml never contradicts a channel (issue 37): every combination of a config
 * entry (top-level or a tenant's own) and what the channels publish. A contradiction is an error at
 * the config line that says it, naming both, before any language version's texts are read; what
 * does not contradict maps as documented.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testProject, type TestProject } from "../helpers/project.js";
import type { Plan } from "../../src/plan/types.js";

// The emulator's channels: Webshop (master, 0), Boutique FR (French, 2), Shop DE (German, 3).
const manifests = "attributes:\n  - name: Colour\n    type: selectbox\n    versions: { French: { name: Couleur }, German: { name: Farbe } }\n";
let p: TestProject;
beforeAll(async () => {
  p = await testProject({ files: { "catalogue/a.yaml": manifests } });
});
afterAll(async () => p.close());

/** A config with `top` as the top-level versions: line (line 2) and `own` as the tenant's (line 7). */
const config = (top: string, own: string) =>
  [
    "dir: catalogue",
    `versions: ${top}`,
    "tenants:",
    "  demo:",
    `    base_url: ${p.emulator.tenantUrl("demo")}`,
    "    token_env: PIMCTL_DEMO_TOKEN",
    `    versions: ${own}`,
    "",
  ].join("\n");

/** What Boutique FR and Shop DE publish: [version name, version id] each. */
function publish(fr: [string, number], de: [string, number]): void {
  const channels = p.emulator.store("demo").channels;
  [channels.get(2)!.version_name, channels.get(2)!.version_id] = fr;
  [channels.get(3)!.version_name, channels.get(3)!.version_id] = de;
}

/** Requests that read a language version's texts: a version list, or a record in a version. */
const textReads = () => Object.keys(p.emulator.stats().requests.byRoute).filter((r) => /version/.test(r));

interface Case {
  name: string;
  top: string;
  own: string;
  channels: [[string, number], [string, number]];
  /** The error, at its pimctl.yaml line:column; or the version ids the plan uses. */
  error?: { at: string; says: string[] };
  ids?: Record<string, number>;
}

const cases: Case[] = [
  {
    name: "a name the channels publish, with their id",
    top: "{ German: 3 }",
    own: "{}",
    channels: [
      ["French", 2],
      ["German", 3],
    ],
    ids: { French: 2, German: 3 },
  },
  {
    name: "a name the channels publish, with another id that no channel publishes",
    top: "{ German: 7 }",
    own: "{}",
    channels: [
      ["French", 2],
      ["German", 3],
    ],
    error: { at: "pimctl.yaml:2:21", says: ['maps language version "German" to id 7', 'channel "Shop DE" publishes "German" as version id 3'] },
  },
  {
    name: "a name no channel publishes, with an id a channel publishes for another name",
    top: "{ German: 7 }",
    own: "{}",
    channels: [
      ["French", 7],
      ["Italian", 8],
    ],
    error: { at: "pimctl.yaml:2:21", says: ['maps language version "German" to id 7', 'channel "Boutique FR" publishes version id 7 as "French"'] },
  },
  {
    name: "a name the channels publish, with the id they publish for another name (a swap)",
    top: "{ German: 2 }",
    own: "{}",
    channels: [
      ["French", 2],
      ["German", 3],
    ],
    error: {
      at: "pimctl.yaml:2:21",
      says: [
        'maps language version "German" to id 2',
        'channel "Shop DE" publishes "German" as version id 3',
        'channel "Boutique FR" publishes version id 2 as "French"',
      ],
    },
  },
  {
    name: "a name no channel publishes, with an id none publishes",
    top: "{ Spanish: 9 }",
    own: "{}",
    channels: [
      ["French", 2],
      ["German", 3],
    ],
    ids: { French: 2, German: 3 },
  },
  {
    name: "a name no channel publishes, with an id none publishes, used by the manifests",
    top: "{ German: 9 }",
    own: "{}",
    channels: [
      ["French", 2],
      ["Italian", 8],
    ],
    ids: { French: 2, German: 9 },
  },
  {
    name: "a tenant's own entry that contradicts, under a top-level one that does not",
    top: "{ German: 3 }",
    own: "{ German: 2 }",
    channels: [
      ["French", 2],
      ["German", 3],
    ],
    error: { at: "pimctl.yaml:7:25", says: ['maps language version "German" to id 2', 'channel "Boutique FR" publishes version id 2 as "French"'] },
  },
  {
    name: "a tenant's own entry that agrees wins over a top-level one that contradicts",
    top: "{ German: 2 }",
    own: "{ German: 3 }",
    channels: [
      ["French", 2],
      ["German", 3],
    ],
    ids: { French: 2, German: 3 },
  },
];

describe("versions: in pimctl.yaml never contradicts a channel", () => {
  for (const c of cases) {
    for (const command of [["plan"], ["plan", "--target", 'attribute["Colour"]'], ["apply", "--auto-approve"]] as const) {
      it(`${c.name}: ${command.join(" ")}`, async () => {
        await p.write("pimctl.yaml", config(c.top, c.own));
        publish(...c.channels);
        p.emulator.resetStats();
        const r = await p.cli([...command, ...(command[0] === "plan" ? ["--format", "json"] : [])]);
        if (c.error) {
          expect(r.code, r.stderr).toBe(1);
          const line = r.stderr.split("\n").find((l) => l.startsWith(`error: ${c.error!.at}: versions: in pimctl.yaml`));
          expect(line, r.stderr).toBeDefined();
          for (const s of c.error.says) expect(r.stderr).toContain(s);
          // Refused before any text of a language version was read.
          expect(textReads()).toEqual([]);
        } else {
          expect(r.code, r.stderr).toBe(0);
          if (command[0] === "plan") expect((JSON.parse(r.stdout) as Plan).version_ids).toEqual(c.ids);
        }
      });
    }
  }
});
