// Module resolution hook (node:module register): the bare specifier `electron` resolves to the
// stand-in beside this file; everything else resolves as usual. See launch-app.mjs.
const FAKE = new URL('./electron.mjs', import.meta.url).href;

/**
 * @param {string} specifier
 * @param {unknown} context
 * @param {(specifier: string, context: unknown) => Promise<{ url: string }>} nextResolve
 */
export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'electron') return { url: FAKE, shortCircuit: true };
  return nextResolve(specifier, context);
}
