/** npm run docs:reference: write docs/reference/ from the CLI's own --help (reference.ts), and remove pages of commands that are gone. */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { packagePath } from "../package.js";
import { referencePages } from "./reference.js";

const dir = packagePath("docs", "reference");
const pages = await referencePages();
mkdirSync(dir, { recursive: true });
for (const [name, text] of Object.entries(pages)) writeFileSync(path.join(dir, name), text);
const gone = readdirSync(dir).filter((f) => f.endsWith(".md") && !(f in pages));
for (const f of gone) rmSync(path.join(dir, f));
console.log(`wrote ${Object.keys(pages).length} pages in ${dir}${gone.length ? `; removed ${gone.join(", ")}` : ""}`);
