/** npm run schemas: regenerate schemas/manifest.schema.json, config.schema.json, ledger.schema.json and README.md. */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { schemaFiles } from "./schema-docs.js";
import { packagePath } from "../package.js";

const dir = packagePath("schemas");
for (const [name, text] of Object.entries(schemaFiles())) writeFileSync(path.join(dir, name), text);
console.log(`wrote ${Object.keys(schemaFiles()).join(", ")} in ${dir}`);
