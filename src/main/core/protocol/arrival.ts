/**
 * When the message being handed on right now started to arrive from its server: the
 * `performance.now()` of the chunk that carried its first byte (a stdio line's first chunk, an
 * HTTP response's headers or the SSE chunk of its event). Observers read it as a message's
 * "first byte" mark (the inspector's timing view).
 *
 * Why a module-level value instead of a parameter: a message goes from the reader that framed it
 * to the observers synchronously, through several owners' callbacks (a connection's `onmessage`,
 * a session, a modern call's handlers) whose signatures should not grow for a mark only observers
 * read. The reader sets it just before it hands a message on and clears it just after, so outside
 * that synchronous hand-over it is -1, and a message the hub wrote itself never carries a stale
 * mark. One clock read per chunk (not per message); nothing else on the proxy path.
 */
export const arrival = { at: -1 };
