/**
 * The app's identity, one value everywhere: electron-builder's `appId` (the macOS bundle id, the
 * Windows installer's shortcut AppUserModelID) and the AppUserModelID main.ts sets on Windows, so
 * notifications are attributed to the installed app. electron-builder-config.test.ts pins the two equal.
 */
export const APP_USER_MODEL_ID = 'dev.patchbay.desktop';
