/**
 * Entry point of the renderer, in a browser tab (HTTP bridge) or the Electron window (IPC
 * bridge, when the preload put `window.patchbay` there). Nothing below knows which.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.js';
import { createStores, type Services } from './app/services.js';
import { createHttpBridge } from './bridge/http-bridge.js';
import { createIpcBridge, ipcAvailable } from './bridge/ipc-bridge.js';
import './styles/app.css';

const bridge = ipcAvailable() ? createIpcBridge(window.patchbay!) : createHttpBridge();
const services: Services = { bridge, stores: createStores() };

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App services={services} />
  </StrictMode>,
);
