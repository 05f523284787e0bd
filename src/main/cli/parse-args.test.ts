import { describe, expect, it } from 'vitest';
import { relayCommand } from './commands/relay.js';
import { parseCommandArgs } from './parse-args.js';

describe('parseCommandArgs', () => {
  it('collects a repeatable option into an array (relay --header)', () => {
    const { values } = parseCommandArgs(relayCommand, ['--url', 'http://127.0.0.1:1/mcp', '--header', 'A: 1', '--header', 'X-Key: 2'], 'relay');
    expect(values.header).toEqual(['A: 1', 'X-Key: 2']);
  });
});
