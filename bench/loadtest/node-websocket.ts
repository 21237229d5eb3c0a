/**
 * Load-test workers hand the SDK the `ws` package's WebSocket instead of Node's built-in one (undici's). The SDK
 * picks `globalThis.WebSocket` when its module loads and falls back to `ws` where there is none, so this module
 * must be imported before anything that loads the SDK. Why: a worker drives hundreds of connections, and in a
 * worker's profile undici (its WebSocket, an EventTarget that copies every frame into a fresh ArrayBuffer, and its
 * fetch) was the largest single item; the workers' CPU is CPU the server under test shares on a small machine.
 * Programs using the SDK are unaffected.
 */
import NodeWebSocket from "ws";

(globalThis as { WebSocket?: unknown }).WebSocket = NodeWebSocket;
