/** Where a command finds the data dir and the config file: flags first, then PATCHBAY_HOME, then the OS default. */
import path from 'node:path';
import { dataPaths, resolveDataDir, type DataPaths } from '../core/index.js';
import type { CliIo, CliOption, OptionValues } from './command.js';
import { stringValue } from './parse-args.js';

export const DATA_DIR_OPTION: CliOption = {
  name: 'data-dir',
  type: 'string',
  valueName: 'DIR',
  description: 'Data dir to use instead of $PATCHBAY_HOME or the per-user default',
};

export const CONFIG_OPTION: CliOption = {
  name: 'config',
  type: 'string',
  valueName: 'FILE',
  description: 'Config file to use instead of <data dir>/config.json',
};

export function defaultDataDir(io: CliIo): string {
  return resolveDataDir({ env: io.env, platform: io.platform, homedir: io.homedir });
}

export function cliDataPaths(io: CliIo, values: OptionValues, commandPath: string): DataPaths {
  const flag = stringValue(values, 'data-dir', commandPath);
  return dataPaths(flag ? path.resolve(io.cwd, flag) : defaultDataDir(io));
}

/** The config file a command should read, and whether it came from `--config`. */
export function cliConfigFile(
  io: CliIo,
  values: OptionValues,
  commandPath: string,
): { file: string; explicit: boolean } {
  const flag = stringValue(values, 'config', commandPath);
  if (flag) return { file: path.resolve(io.cwd, flag), explicit: true };
  return { file: cliDataPaths(io, values, commandPath).configFile, explicit: false };
}
