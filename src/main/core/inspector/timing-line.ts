/**
 * An exchange's timing marks on disk (event-line.ts writes exchanges compactly): `,"tm":[sent,
 * firstByte,answered,delivered]`, ms after the exchange's start, `null` for a mark the hub could
 * not take. Four numbers and no keys, since one is written for every exchange.
 */
import type { ExchangeTiming } from '../../../shared/api/inspector-contract.js';
import type { LineLog } from './line-log.js';

const TIMING = Buffer.from(',"tm":[');
const NULL = Buffer.from('null');
const COMMA = 0x2c;
const CLOSE_ARRAY = 0x5d;

export function writeTiming(log: LineLog, t: ExchangeTiming): void {
  log.bytes(TIMING);
  const marks = [t.sentMs, t.firstByteMs, t.answeredMs, t.deliveredMs];
  for (let i = 0; i < 4; i++) {
    if (i > 0) log.byte(COMMA);
    const v = marks[i];
    if (v === undefined) log.bytes(NULL);
    else log.ms(v);
  }
  log.byte(CLOSE_ARRAY);
}

/** The marks of a line's `"tm"` array. */
export function timingOf(tm: ReadonlyArray<number | null>): ExchangeTiming {
  const t: ExchangeTiming = {};
  const [sent, firstByte, answered, delivered] = tm;
  if (typeof sent === 'number') t.sentMs = sent;
  if (typeof firstByte === 'number') t.firstByteMs = firstByte;
  if (typeof answered === 'number') t.answeredMs = answered;
  if (typeof delivered === 'number') t.deliveredMs = delivered;
  return t;
}
