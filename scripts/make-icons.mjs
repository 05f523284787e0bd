// Draws Patchbay's icons from the vector designs below and writes them under assets/:
//   assets/icon.svg, assets/icon.png (1024 px: electron-builder makes the .icns and .ico from it)
//   assets/icons/<n>x<n>.png (the Linux icon set: 16 … 1024)
//   assets/tray/tray{Starting,Stopped,Idle,Serving,Error}Template[@2x].png (macOS menu bar: black + alpha, tinted by the OS)
//   assets/tray/tray-{starting,stopped,idle,serving,error}[@2x].png (Windows and Linux: coloured)
// Run `node scripts/make-icons.mjs` after changing a design; the PNGs are committed.
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Resvg } from '@resvg/resvg-js';

const assets = fileURLToPath(new URL('../assets/', import.meta.url));

// The app icon: a patch panel — two columns of jacks, three cables patched across.
const JACKS = [320, 512, 704].flatMap((y) => [
  [300, y],
  [724, y],
]);
const CABLES = [
  ['M300 320 C 540 320, 484 704, 724 704', '#F5A524'],
  ['M300 704 C 540 704, 484 512, 724 512', '#38BDF8'],
  ['M300 512 C 520 512, 504 320, 724 320', '#4ADE80'],
];
const appIconSvg = `<svg xmlns="http://www.w3.org/2000/svg" width="1024" height="1024" viewBox="0 0 1024 1024">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#3B3F8F"/>
      <stop offset="1" stop-color="#1B1E4B"/>
    </linearGradient>
  </defs>
  <rect x="80" y="80" width="864" height="864" rx="192" fill="url(#bg)"/>
  <g fill="#0E1030" stroke="#C9CCF5" stroke-width="18">
    ${JACKS.map(([x, y]) => `<circle cx="${x}" cy="${y}" r="64"/>`).join('\n    ')}
  </g>
  <g fill="none" stroke-width="46" stroke-linecap="round">
    ${CABLES.map(([d, colour]) => `<path d="${d}" stroke="${colour}"/>`).join('\n    ')}
  </g>
  <g fill="#FFFFFF">
    ${JACKS.map(([x, y]) => `<circle cx="${x}" cy="${y}" r="24"/>`).join('\n    ')}
  </g>
</svg>
`;

// The tray glyph, on a 16-unit grid: two jacks and one cable. Idle: hollow jacks. Serving: filled
// jacks. Starting: the cable dotted (being patched). Stopped: the jacks, no cable. Error: the cable
// ends in a warning mark instead of the second jack.
/** @typedef {'starting' | 'stopped' | 'idle' | 'serving' | 'error'} TrayState */
/** @param {TrayState} state @param {string} ink */
function trayGlyph(state, ink) {
  const jack = (/** @type {number} */ x, /** @type {number} */ y) =>
    state === 'serving' ? `<circle cx="${x}" cy="${y}" r="2.6" fill="${ink}"/>` : `<circle cx="${x}" cy="${y}" r="2.1" fill="none" stroke="${ink}" stroke-width="1.4"/>`;
  const dash = state === 'starting' ? ' stroke-dasharray="1.4 1.6"' : '';
  const cable = `<path d="M5.3 4.2 C 9 4.2, 7 11.8, 10.7 11.8" fill="none" stroke="${ink}" stroke-width="1.6" stroke-linecap="round"${dash}/>`;
  if (state === 'stopped') return `${jack(3.2, 4.2)}${jack(12.8, 11.8)}`;
  if (state !== 'error') return `${jack(3.2, 4.2)}${jack(12.8, 11.8)}${cable}`;
  const warning = `<path d="M12.3 8.6 L15.6 14.8 L9 14.8 Z" fill="${ink}"/><path d="M12.3 10.6 V12.6" stroke="#FFFFFF" stroke-width="1.1" stroke-linecap="round"/><circle cx="12.3" cy="13.7" r="0.6" fill="#FFFFFF"/>`;
  const shortCable = `<path d="M5.3 4.2 C 8 4.2, 7.5 8, 9.6 9.6" fill="none" stroke="${ink}" stroke-width="1.6" stroke-linecap="round"/>`;
  return `${jack(3.2, 4.2)}${shortCable}${warning}`;
}

/** @param {string} body */
const traySvg = (body) => `<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16">${body}</svg>`;

/** A template image must be black with alpha only: the warning's cut-out is made transparent with a mask. */
/** @param {TrayState} state */
function templateSvg(state) {
  if (state !== 'error') return traySvg(trayGlyph(state, '#000000'));
  return traySvg(
    `<defs><mask id="m"><rect width="16" height="16" fill="#FFFFFF"/><path d="M12.3 10.6 V12.6" stroke="#000000" stroke-width="1.1" stroke-linecap="round"/><circle cx="12.3" cy="13.7" r="0.6" fill="#000000"/></mask></defs>` +
      `<g mask="url(#m)">${trayGlyph('error', '#000000').replaceAll('#FFFFFF', '#000000')}</g>`,
  );
}

const COLOURS = { starting: '#D97706', stopped: '#9CA3AF', idle: '#6B7280', serving: '#16A34A', error: '#DC2626' };

/** @param {string} svg @param {number} size */
function png(svg, size) {
  return new Resvg(svg, { fitTo: { mode: 'width', value: size }, background: 'rgba(0,0,0,0)' }).render().asPng();
}

await mkdir(`${assets}icons`, { recursive: true });
await mkdir(`${assets}tray`, { recursive: true });
await writeFile(`${assets}icon.svg`, appIconSvg);
await writeFile(`${assets}icon.png`, png(appIconSvg, 1024));
for (const size of [16, 24, 32, 48, 64, 128, 256, 512, 1024]) await writeFile(`${assets}icons/${size}x${size}.png`, png(appIconSvg, size));
for (const state of /** @type {const} */ (['starting', 'stopped', 'idle', 'serving', 'error'])) {
  const name = state.charAt(0).toUpperCase() + state.slice(1);
  await writeFile(`${assets}tray/tray${name}Template.png`, png(templateSvg(state), 16));
  await writeFile(`${assets}tray/tray${name}Template@2x.png`, png(templateSvg(state), 32));
  const coloured = traySvg(trayGlyph(state, COLOURS[state]));
  await writeFile(`${assets}tray/tray-${state}.png`, png(coloured, 16));
  await writeFile(`${assets}tray/tray-${state}@2x.png`, png(coloured, 32));
}
console.log(`icons written to ${assets}`);
