/**
 * The IPC side of the API: one `ipcMain.handle` per contract call (channel = call name, from
 * `appCallNames`), each checked for its sender before it reaches the engine's ApiRegistry (which
 * validates the input with the contract's schema). Event subscriptions and the inspector's live
 * feed are delivered with `webContents.send` to the page that asked, and end when it navigates
 * away, reloads or closes.
 */
import type { IpcMainInvokeEvent, WebContents } from 'electron';
import { z } from 'zod';
import { appCallNames, type AppEvent } from '../../shared/api/app-contract.js';
import type { ApiResult } from '../../shared/api/contract.js';
import { IPC_CHANNELS, type EventMessage, type LiveMessage } from '../../shared/api/ipc-channels.js';
import { readHubToken, type Logger } from '../core/index.js';
import type { EngineHost } from './engine-host.js';
import { openInspectorLive } from './ipc-inspector-live.js';
import { checkSender, type SenderCheck } from './ipc-sender.js';

export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
}

export interface IpcApiDeps {
  ipcMain: IpcMainLike;
  host: EngineHost;
  /** The id of the window's webContents: no other page may call, whatever its URL. */
  windowContentsId(): number | undefined;
  logger: Logger;
}

const subscribeSchema = z.object({ id: z.number().int().positive(), since: z.number().int().nonnegative().optional() });
const idSchema = z.object({ id: z.number().int().positive() });
const liveSchema = z.object({
  id: z.number().int().positive(),
  query: z.object({
    cursor: z.number().int().nonnegative().optional(),
    server: z.string().max(200).optional(),
    session: z.string().max(200).optional(),
    view: z.enum(['events', 'exchanges']).optional(),
  }),
});

/** Registers every handler; returns a function that removes them and ends every subscription. */
export function registerIpcApi(deps: IpcApiDeps): () => void {
  const { ipcMain, host, logger } = deps;
  const perPage = new Map<number, Map<string, () => void>>();

  const trusted = (event: IpcMainInvokeEvent): SenderCheck => {
    if (event.sender.id !== deps.windowContentsId()) return { ok: false, code: 'ipc_forbidden', message: 'calls from other pages are refused' };
    return checkSender(event.senderFrame);
  };
  const handle = (channel: string, run: (event: IpcMainInvokeEvent, arg: unknown) => Promise<ApiResult<unknown>> | ApiResult<unknown>): void => {
    ipcMain.handle(channel, async (event, arg) => {
      const check = trusted(event);
      if (!check.ok) {
        logger.warn(`IPC ${channel} refused: ${check.message}`);
        return { ok: false, code: check.code, message: check.message };
      }
      return run(event, arg);
    });
  };
  const engineOrError = async (): Promise<ApiResult<NonNullable<EngineHost['current']>>> => {
    // Waits for a start under way; a failed start is not retried by every call of the page (the
    // tray's Retry, the failure dialog and a relay's hand-off do that).
    if (host.state.state !== 'error') await host.start();
    const engine = host.current;
    if (engine) return { ok: true, value: engine };
    const state = host.state;
    const why = state.state === 'error' ? `: ${state.message}` : '';
    return { ok: false, code: 'engine_not_running', message: `The Patchbay engine is not running${why}. Choose "Retry Starting the Hub" in the tray menu.` };
  };

  for (const name of appCallNames) {
    handle(name, async (_event, input) => {
      const engine = await engineOrError();
      return engine.ok ? engine.value.api.invoke(name, input) : engine;
    });
  }

  const track = (sender: WebContents, key: string, stop: () => void): void => {
    let page = perPage.get(sender.id);
    if (!page) {
      const map = new Map<string, () => void>();
      perPage.set(sender.id, map);
      page = map;
      const endAll = (): void => {
        for (const end of map.values()) end();
        map.clear();
        perPage.delete(sender.id);
      };
      sender.once('destroyed', endAll);
      // A reload or navigation starts a new page with a new preload: its old subscriptions are dead.
      sender.once('did-navigate', endAll);
    }
    page.get(key)?.();
    page.set(key, stop);
  };
  const untrack = (sender: WebContents, key: string): void => {
    const page = perPage.get(sender.id);
    page?.get(key)?.();
    page?.delete(key);
  };
  const send = (sender: WebContents, channel: string, message: EventMessage | LiveMessage): void => {
    if (!sender.isDestroyed()) sender.send(channel, message);
  };

  handle(IPC_CHANNELS.subscribe, async (event, arg) => {
    const parsed = subscribeSchema.safeParse(arg);
    if (!parsed.success) return invalid(IPC_CHANNELS.subscribe);
    const engine = await engineOrError();
    if (!engine.ok) return engine;
    const { id, since } = parsed.data;
    const sub = engine.value.api.subscribe((e) => send(event.sender, IPC_CHANNELS.event, { id, event: e as AppEvent }), since);
    track(event.sender, `event:${id}`, sub.unsubscribe);
    return { ok: true, value: { complete: sub.complete } };
  });
  handle(IPC_CHANNELS.unsubscribe, (event, arg) => {
    const parsed = idSchema.safeParse(arg);
    if (!parsed.success) return invalid(IPC_CHANNELS.unsubscribe);
    untrack(event.sender, `event:${parsed.data.id}`);
    return { ok: true, value: {} };
  });
  handle(IPC_CHANNELS.liveStart, (event, arg) => {
    const parsed = liveSchema.safeParse(arg);
    if (!parsed.success) return invalid(IPC_CHANNELS.liveStart);
    const { id, query } = parsed.data;
    const stop = openInspectorLive({
      query,
      logger: logger.child('live'),
      endpoint: async () => {
        const engine = host.current;
        return engine ? { url: engine.url, token: await readHubToken(engine.tokenFile) } : undefined;
      },
      onReady: (ready) => send(event.sender, IPC_CHANNELS.live, { id, kind: 'ready', ready }),
      onEvent: (e) => send(event.sender, IPC_CHANNELS.live, { id, kind: 'event', event: e }),
    });
    track(event.sender, `live:${id}`, stop);
    return { ok: true, value: {} };
  });
  handle(IPC_CHANNELS.liveStop, (event, arg) => {
    const parsed = idSchema.safeParse(arg);
    if (!parsed.success) return invalid(IPC_CHANNELS.liveStop);
    untrack(event.sender, `live:${parsed.data.id}`);
    return { ok: true, value: {} };
  });

  return () => {
    for (const name of [...appCallNames, ...Object.values(IPC_CHANNELS)]) ipcMain.removeHandler(name);
    for (const page of perPage.values()) for (const end of page.values()) end();
    perPage.clear();
  };
}

function invalid(channel: string): ApiResult<never> {
  return { ok: false, code: 'invalid_input', message: `Invalid request on ${channel}` };
}
