import { describe, expect, it } from 'vitest';
import { Ring } from './ring.js';

describe('Ring', () => {
  it('is a FIFO across wrap-arounds and growth, with indexed access both ways', () => {
    const ring = new Ring<number>();
    const model: number[] = [];
    // Interleave pushes and shifts so the head wraps many times while the buffer grows.
    for (let i = 0; i < 1000; i++) {
      ring.push(i);
      model.push(i);
      if (i % 3 === 0) expect(ring.shift()).toBe(model.shift());
    }
    expect(ring.length).toBe(model.length);
    expect([...ring]).toEqual(model);
    expect([...ring.reversed()]).toEqual([...model].reverse());
    expect(ring.first).toBe(model[0]);
    expect(ring.last).toBe(model.at(-1));
    expect(ring.at(5)).toBe(model[5]);
    expect(ring.at(-1)).toBeUndefined();
    expect(ring.at(model.length)).toBeUndefined();
    while (model.length) expect(ring.shift()).toBe(model.shift());
    expect(ring.shift()).toBeUndefined();
    expect(ring.first).toBeUndefined();
    expect(ring.last).toBeUndefined();
  });

  it('bounded: a full ring drops its oldest item and returns it', () => {
    const ring = new Ring<string>(3);
    expect(ring.push('a')).toBeUndefined();
    ring.push('b');
    ring.push('c');
    expect(ring.push('d')).toBe('a');
    expect(ring.push('e')).toBe('b');
    expect([...ring]).toEqual(['c', 'd', 'e']);
    expect(ring.length).toBe(3);
  });

  it('finds the first item past a key by binary search', () => {
    const ring = new Ring<{ seq: number }>();
    for (const seq of [2, 4, 6, 8, 10]) ring.push({ seq });
    ring.shift(); // the head moves: positions are relative to the oldest item
    ring.push({ seq: 12 });
    expect(ring.firstIndexWhere((x) => x.seq > 5)).toBe(1);
    expect(ring.at(ring.firstIndexWhere((x) => x.seq > 5))).toEqual({ seq: 6 });
    expect(ring.firstIndexWhere((x) => x.seq > 0)).toBe(0);
    expect(ring.firstIndexWhere((x) => x.seq > 100)).toBe(ring.length);
  });

  it('clear empties it for reuse', () => {
    const ring = new Ring<number>();
    for (let i = 0; i < 40; i++) ring.push(i);
    ring.clear();
    expect(ring.length).toBe(0);
    ring.push(7);
    expect([...ring]).toEqual([7]);
  });
});
