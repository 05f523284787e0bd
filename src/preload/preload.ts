/**
 * The window's preload (sandboxed: bundled into one CommonJS file by scripts/build-electron.mjs,
 * requiring only `electron`). It exposes `window.patchbay` (type PatchbayBridge) and nothing else.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { appCallNames } from '../shared/api/app-contract.js';
import { createPatchbayBridge } from './bridge-api.js';

contextBridge.exposeInMainWorld('patchbay', createPatchbayBridge(ipcRenderer, appCallNames));
