/**
 * A file written whole or not at all: the text goes to a temporary name beside it, then a
 * rename takes its place (atomic on one filesystem), so an interruption leaves the old file or
 * the new one, never half of either.
 */
import { rename, unlink, writeFile } from "node:fs/promises";

export async function writeFileAtomic(file: string, text: string): Promise<void> {
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    await writeFile(tmp, text, "utf8");
    await rename(tmp, file);
  } catch (e) {
    await unlink(tmp).catch(() => undefined);
    throw e;
  }
}
