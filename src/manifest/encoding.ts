/**
 * Manifest bytes to text: UTF-8 only, a UTF-8 byte order mark allowed (and
 * dropped). Anything else is an error with file:line:col, never a U+FFFD that
 * ends up in a name the apply creates (Latin-1 `é` is the byte 0xE9, which no
 * UTF-8 reader takes).
 */
import { PimctlError } from "../errors.js";
import type { SourceLocation } from "../model/catalogue.js";

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Offset of the first byte that does not begin or continue a well-formed UTF-8 sequence (RFC 3629), or -1. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) ((need = 1), (min = 0x80));
    else if (b >= 0xe0 && b <= 0xef) ((need = 2), (min = 0x800));
    else if (b >= 0xf0 && b <= 0xf4) ((need = 3), (min = 0x10000));
    else return i;
    let code = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      code = (code << 6) | (c & 0x3f);
    }
    // Overlong forms, UTF-16 surrogates and code points past U+10FFFF are not UTF-8 either.
    if (code < min || (code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff) return i;
    i += need + 1;
  }
  return -1;
}

/** Line and column (in characters, as every other position pimctl gives) of a byte offset in bytes valid up to it. */
function locate(bytes: Uint8Array, offset: number, file: string): SourceLocation {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++)
    if (bytes[i] === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  const before = new TextDecoder("utf-8").decode(bytes.subarray(lineStart, offset));
  return { file, line, column: before.length + 1 };
}

/** What the byte would be in Windows-1252 (Latin-1 as editors save it), when that is a visible character. */
function asLatin1(byte: number): string | undefined {
  const ch = new TextDecoder("windows-1252").decode(Uint8Array.of(byte));
  return /[\p{L}\p{N}\p{P}\p{S}]/u.test(ch) ? ch : undefined;
}

const hex = (b: number) => `0x${b.toString(16).toUpperCase().padStart(2, "0")}`;

export function decodeManifest(bytes: Uint8Array, file: string): { text: string } | { error: PimctlError } {
  const start = { file, line: 1, column: 1 };
  const utf16 =
    bytes[0] === 0xff && bytes[1] === 0xfe
      ? "UTF-16 little-endian (byte order mark FF FE)"
      : bytes[0] === 0xfe && bytes[1] === 0xff
        ? "UTF-16 big-endian (byte order mark FE FF)"
        : undefined;
  if (utf16)
    return {
      error: new PimctlError("io", `this file is ${utf16}; pimctl reads UTF-8 only: save it as UTF-8 (a UTF-8 byte order mark is fine)`, { location: start }),
    };
  const nul = bytes.indexOf(0);
  if (nul !== -1) {
    // UTF-16 without a byte order mark: every other byte of ASCII text is 0.
    const looksUtf16 = bytes.length > 1 && (bytes[0] === 0 || bytes[1] === 0);
    const message = looksUtf16
      ? "this file looks like UTF-16 without a byte order mark (every other byte is 0); pimctl reads UTF-8 only: save it as UTF-8"
      : "this file holds a NUL byte (0x00), which no YAML text holds: is it a binary file, or UTF-16?";
    return { error: new PimctlError("io", message, { location: looksUtf16 ? start : locate(bytes, nul, file) }) };
  }
  try {
    // The decoder drops a UTF-8 byte order mark at the start.
    return { text: utf8.decode(bytes) };
  } catch {
    const at = firstInvalidUtf8(bytes);
    if (at === -1) return { error: new PimctlError("io", "this file is not UTF-8; pimctl reads UTF-8 only: save the file as UTF-8", { location: start }) };
    const byte = bytes[at]!;
    const latin1 = asLatin1(byte);
    return {
      error: new PimctlError(
        "io",
        `this file is not UTF-8: the byte ${hex(byte)} here is not valid UTF-8${latin1 ? ` (in Latin-1 or Windows-1252 it is "${latin1}")` : ""}; ` +
          `pimctl reads UTF-8 only: save the file as UTF-8`,
        {
          location: locate(bytes, at, file),
        },
      ),
    };
  }
}
