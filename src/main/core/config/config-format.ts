/** How a config goes back to disk: in the file's own style, so a diff shows only the change. */
import type { PatchbayConfig } from '../../../shared/config-schema.js';

/** JSON in the previous file's indentation and line endings (2 spaces and LF for a new file), ending with a newline. */
export function serializeConfig(config: PatchbayConfig, previousText?: string): string {
  const indent = previousText ? (/^([ \t]+)"/m.exec(previousText)?.[1] ?? '  ') : '  ';
  const json = JSON.stringify(config, null, indent);
  const eol = previousText?.includes('\r\n') ? '\r\n' : '\n';
  return (eol === '\n' ? json : json.replace(/\n/g, eol)) + eol;
}

/** Freeze a config handed to many readers, so one of them cannot change it under the others. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
