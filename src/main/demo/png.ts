/**
 * A tiny PNG encoder (RGB, no filter, deflate from node:zlib): enough for the demo server's chart
 * tool to return a real image without a dependency.
 */
import { deflateSync } from 'node:zlib';

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** Encodes `width`×`height` pixels; `pixel(x, y)` gives [r, g, b]. */
export function encodePng(width: number, height: number, pixel: (x: number, y: number) => readonly [number, number, number]): Buffer {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  let i = 0;
  for (let y = 0; y < height; y++) {
    raw[i++] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      const [r, g, b] = pixel(x, y);
      raw[i++] = r;
      raw[i++] = g;
      raw[i++] = b;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

/** A bar chart of `values` (0…max), bars in the app's accent blue on white. */
export function barChartPng(values: readonly number[], width = 240, height = 120): Buffer {
  const max = Math.max(1, ...values);
  const slot = width / Math.max(1, values.length);
  return encodePng(width, height, (x, y) => {
    const i = Math.floor(x / slot);
    const inBar = x - i * slot >= slot * 0.15 && x - i * slot < slot * 0.85;
    const top = height - 8 - Math.round(((values[i] ?? 0) / max) * (height - 16));
    if (y >= height - 8) return [210, 215, 222];
    if (inBar && y >= top) return [33, 83, 207];
    return [255, 255, 255];
  });
}
