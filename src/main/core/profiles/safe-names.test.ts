import { describe, expect, it } from 'vitest';
import { exposedNames, itemKey, MAX_NAME_LENGTH, type NamedItem } from './safe-names.js';

const SAFE = /^[A-Za-z0-9_-]{1,64}$/;
const names = (items: NamedItem[], prefix = true): string[] => {
  const map = exposedNames(items, prefix);
  return items.map((i) => map.get(itemKey(i.server, i.name))!);
};

describe('safe names', () => {
  it('qualifies clean names with the server id, unchanged otherwise', () => {
    expect(names([{ server: 'github', name: 'create_issue' }, { server: 'fs', name: 'read-file' }])).toEqual(['github__create_issue', 'fs__read-file']);
    expect(names([{ server: 'fs', name: 'read_file' }], false)).toEqual(['read_file']);
  });

  it('replaces unsafe characters and shortens long names with a stable suffix, at most 64 characters', () => {
    const long = 'x'.repeat(70);
    const out = names([{ server: 'my.server', name: 'get item' }, { server: 'a', name: long }, { server: 'ü', name: 'ß' }]);
    for (const n of out) expect(n).toMatch(SAFE);
    expect(out[0]).toMatch(/^my_server__get_item_[a-z2-7]{6}$/);
    expect(out[1]).toHaveLength(MAX_NAME_LENGTH);
    expect(out[1]).toMatch(/^a__x+_[a-z2-7]{6}$/);
  });

  it('gives colliding names distinct suffixes, whatever order they come in', () => {
    // Same sanitized form, and a clean-name collision across the separator.
    const items: NamedItem[] = [
      { server: 'beta', name: 'lookup.item' },
      { server: 'beta', name: 'lookup/item' },
      { server: 'beta', name: 'lookup_item' },
      { server: 'a__b', name: 'c' },
      { server: 'a', name: 'b__c' },
    ];
    const forward = names(items);
    expect(new Set(forward).size).toBe(items.length);
    for (const n of forward) expect(n).toMatch(SAFE);
    expect(forward[2]).toBe('beta__lookup_item');
    expect(forward[3]).not.toBe('a__b__c');
    expect(forward[4]).not.toBe('a__b__c');
    const reversed = names([...items].reverse()).reverse();
    expect(reversed).toEqual(forward);
  });

  it('is deterministic: the same item gets the same name in another set', () => {
    const one = names([{ server: 's', name: 'n.1' }]);
    const two = names([{ server: 'other', name: 'z' }, { server: 's', name: 'n.1' }]);
    expect(two[1]).toBe(one[0]);
  });
});
