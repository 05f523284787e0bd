import { describe, expect, it } from 'vitest';
import { relayCommand } from './commands/relay.js';
import { multipleValue, parseCommandArgs } from './parse-args.js';

describe('parseCommandArgs', () => {
  it('collects a repeatable option into an array (relay --header)', () => {
    const { values } = parseCommandArgs(relayCommand, ['--url', 'http://127.0.0.1:1/mcp', '--header', 'A: 1', '--header', 'X-Key: 2'], 'relay');
    expect(values.header).toEqual(['A: 1', 'X-Key: 2']);
    expect(multipleValue(values, 'header')).toEqual(['A: 1', 'X-Key: 2']);
  });

  it('reads a repeatable option given once, and not at all, as a list (multipleValue)', () => {
    const once = parseCommandArgs(relayCommand, ['--url', 'http://127.0.0.1:1/mcp', '--header', 'A: 1'], 'relay');
    expect(multipleValue(once.values, 'header')).toEqual(['A: 1']);
    const none = parseCommandArgs(relayCommand, ['--url', 'http://127.0.0.1:1/mcp'], 'relay');
    expect(multipleValue(none.values, 'header')).toEqual([]);
  });
});
