/**
 * The command reference (docs/reference/): one page per command, rendered from the CLI's own
 * `--help`, so the reference says what the parser accepts and nothing else. Commands and
 * subcommands are found in the help itself (its "Commands:" lists), so a new command gets a
 * page without a list kept by hand. `npm run docs:reference` writes the pages
 * (write-reference.ts); a test renders them again and compares them with the committed ones.
 */
import { memoryIo } from "./io.js";
import { buildParser } from "./run.js";

/** The width help is wrapped to in the pages, whatever terminal writes them. */
const COLUMNS = 100;

/** Commands whose help is not a help text (`completion --help` prints the completion script). */
const NO_PAGE = new Set(["completion"]);

/** The task page (under docs/) that explains each command, linked from its reference page. */
const GUIDES: Record<string, { title: string; page: string }> = {
  validate: { title: "Manifests", page: "manifests.md" },
  plan: { title: "Plans and review", page: "plans.md" },
  apply: { title: "Apply", page: "apply.md" },
  diff: { title: "Promotion and fleets", page: "promotion.md" },
  drift: { title: "Drift", page: "drift.md" },
  show: { title: "Fleets", page: "fleets.md#pimctl-show-file-the-review-of-saved-plans" },
  state: { title: "State and locking", page: "state.md" },
  translations: { title: "Translations", page: "translations.md" },
  export: { title: "Promotion and fleets", page: "promotion.md#export-into-a-folder-of-manifests" },
  ping: { title: "First contact with your tenant", page: "doctor.md" },
  doctor: { title: "First contact with your tenant", page: "doctor.md" },
  init: { title: "Configuration", page: "configuration.md" },
  demo: { title: "the README's quick start", page: "../README.md#quick-start" },
  emulator: { title: "The emulator", page: "emulator.md" },
};

/** `pimctl <words> --help`, as the CLI prints it. */
export async function helpText(words: readonly string[]): Promise<string> {
  const argv = [...words, "--help"];
  let text = "";
  let failure: Error | undefined;
  await buildParser(argv, memoryIo({ cwd: ".", env: {} }), { parseOnly: true, columns: COLUMNS }).parseAsync(argv, {}, (err, _args, output) => {
    if (err) failure = err;
    text = output;
  });
  if (failure) throw failure;
  return text.endsWith("\n") ? text : `${text}\n`;
}

/** The commands a help text lists under "Commands:" (`pimctl state show` → ["state", "show"]). */
export function listedCommands(help: string): string[][] {
  const start = help.indexOf("\nCommands:\n");
  if (start < 0) return [];
  const block = help.slice(start + "\nCommands:\n".length).split("\n\n")[0]!;
  return block
    .split("\n")
    .filter((line) => line.startsWith("  pimctl "))
    .map((line) => {
      const words: string[] = [];
      for (const w of line.trim().split(/\s+/).slice(1)) {
        if (!/^[a-z][a-z-]*$/.test(w)) break;
        words.push(w);
      }
      return words;
    });
}

const fence = (text: string) => ["```text", text.trimEnd(), "```"].join("\n");

function pageHeader(words: readonly string[]): string {
  const name = ["pimctl", ...words].join(" ");
  const guide = GUIDES[words[0] ?? ""];
  const links = [
    ...(guide ? [`Guide: [${guide.title}](../${guide.page}).`] : []),
    "All commands: [the reference](README.md).",
    "Exit codes: [the README](../../README.md#exit-codes).",
  ];
  return [
    `# ${name}`,
    "",
    `<!-- Generated from \`${name} --help\` by \`npm run docs:reference\`: change the command's options and texts in src/cli/commands/, then run it. -->`,
    "",
    links.join(" "),
  ].join("\n");
}

/** One command's page: its help, then each subcommand's (`pimctl state show`, ...), in the order its help lists them. */
async function commandPage(words: string[]): Promise<string> {
  const help = await helpText(words);
  const sections = [pageHeader(words), fence(help)];
  for (const sub of listedCommands(help)) sections.push(`## ${["pimctl", ...sub].join(" ")}`, fence(await helpText(sub)));
  return `${sections.join("\n\n")}\n`;
}

/** The index page: the top-level help and a link to each command's page. */
function indexPage(help: string, commands: string[][]): string {
  const rows = commands.map(([c]) => `| [\`pimctl ${c!}\`](${c!}.md) | ${GUIDES[c!] ? `[${GUIDES[c!]!.title}](../${GUIDES[c!]!.page})` : ""} |`);
  return [
    "# Command reference",
    "",
    "<!-- Generated from `pimctl --help` by `npm run docs:reference`. -->",
    "",
    "Every page is the command's own `--help`, as this version of pimctl prints it (a test fails when a",
    "command's help changes and its page does not). How to use each command for a task: the guide beside it.",
    "`pimctl completion` prints a bash/zsh completion script (`pimctl completion >> ~/.bashrc`).",
    "",
    "| command | guide |",
    "|---|---|",
    ...rows,
    "",
    fence(help),
    "",
  ].join("\n");
}

/** Every page of docs/reference/, by file name: README.md (the index) and `<command>.md`. */
export async function referencePages(): Promise<Record<string, string>> {
  const top = await helpText([]);
  const commands = listedCommands(top).filter(([c]) => c && !NO_PAGE.has(c));
  const pages: Record<string, string> = { "README.md": indexPage(top, commands) };
  for (const words of commands) pages[`${words[0]!}.md`] = await commandPage(words);
  return pages;
}
