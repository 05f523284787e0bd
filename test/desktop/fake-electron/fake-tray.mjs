// The fake Electron's nativeImage, Menu and Tray (see electron.mjs): images are decoded from the
// PNG files (empty when missing, as Electron's are), menus keep their items for tray clicks.
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { record, requireReady } from './recorder.mjs';

/** The image Electron would decode: empty when the file is missing or not a PNG. @param {string} file */
function imageFrom(file) {
  let size = { width: 0, height: 0 };
  try {
    const png = readFileSync(file);
    if (png.subarray(1, 4).toString('latin1') === 'PNG') size = { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
  } catch {
    // missing: an empty image, as Electron returns
  }
  return { file, isEmpty: () => size.width === 0, getSize: () => size, setTemplateImage() {}, toJSON: () => ({ file, ...size }) };
}
export const nativeImage = {
  createFromPath: (/** @type {string} */ file) => imageFrom(file),
  createEmpty: () => imageFrom(''),
};

/** @typedef {{ label?: string, type?: string, enabled?: boolean, checked?: boolean, click?: (...args: unknown[]) => void }} MenuItem */
export const Menu = {
  buildFromTemplate: (/** @type {MenuItem[]} */ template) => ({ items: template }),
  setApplicationMenu: (/** @type {unknown} */ menu) => void record('Menu.setApplicationMenu', { menu: menu === null ? null : 'menu' }),
};

/** @type {Tray[]} */
export const trays = [];
export const currentTray = () => trays.at(-1);
/** @param {MenuItem[]} items */
const describe = (items) => items.map((i) => ({ label: i.label, type: i.type, enabled: i.enabled, checked: i.checked }));

export class Tray extends EventEmitter {
  constructor(/** @type {ReturnType<typeof imageFrom>} */ image) {
    super();
    requireReady('new Tray');
    this.image = image;
    /** @type {MenuItem[]} */
    this.menu = [];
    this.destroyed = false;
    trays.push(this);
    record('Tray.new', { image: image.toJSON() });
  }
  setImage(/** @type {ReturnType<typeof imageFrom>} */ image) {
    this.image = image;
    record('Tray.setImage', { image: image.toJSON() });
  }
  setToolTip(/** @type {string} */ text) {
    record('Tray.setToolTip', { text });
  }
  setContextMenu(/** @type {{ items: MenuItem[] }} */ menu) {
    this.menu = menu.items;
    record('Tray.setContextMenu', { items: describe(menu.items) });
  }
  popUpContextMenu() {}
  destroy() {
    this.destroyed = true;
    record('Tray.destroy');
  }
  isDestroyed() {
    return this.destroyed;
  }
}
