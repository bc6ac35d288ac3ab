#!/usr/bin/env node
/** The action's step (action.yml runs `node node_modules/pimctl/dist/ci/github-action-main.js`); the only exit of the action. */
import { runAction } from "./github-action.js";
import { escapeControls } from "../base/controls.js";

runAction(process.env, process.cwd()).then(
  (r) => {
    process.exitCode = r.stepExit;
  },
  (e: unknown) => {
    // The message may quote GitHub's answer: shown escaped in the log (src/base/controls.ts).
    process.stderr.write(`pimctl action: ${escapeControls(e instanceof Error ? e.message : String(e), { keepNewlines: true })}\n`);
    process.exitCode = 1;
  },
);
