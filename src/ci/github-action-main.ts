#!/usr/bin/env node
/** The action's step (action.yml runs `node node_modules/pimctl/dist/ci/github-action-main.js`); the only exit of the action. */
import { runAction } from "./github-action.js";

runAction(process.env, process.cwd()).then(
  (r) => {
    process.exitCode = r.stepExit;
  },
  (e: unknown) => {
    process.stderr.write(`pimctl action: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
  },
);
