import { describe, expect, it } from 'vitest';
import { accepts } from './http-util.js';

describe('accepts', () => {
  it('finds a media type among the listed ones, ignoring parameters, case and spaces; */* and type/* count', () => {
    const both = 'application/json, text/event-stream';
    expect(accepts(both, 'application/json')).toBe(true);
    expect(accepts(both, 'text/event-stream')).toBe(true);
    expect(accepts('Application/JSON;q=0.9 ,TEXT/*', 'text/event-stream')).toBe(true);
    expect(accepts('*/*', 'application/json')).toBe(true);
    expect(accepts('application/json', 'text/event-stream')).toBe(false);
    expect(accepts('text/html, application/jsonx', 'application/json')).toBe(false);
    expect(accepts(undefined, 'application/json')).toBe(false);
    expect(accepts('', 'application/json')).toBe(false);
  });

  it('answers the same for a header it has seen, and stays right past its memo (a client that varies its header)', () => {
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 200; i++) {
        expect(accepts(`application/json;v=${i}`, 'application/json')).toBe(true);
        expect(accepts(`application/json;v=${i}`, 'text/event-stream')).toBe(false);
      }
    }
  });
});
