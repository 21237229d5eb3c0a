/**
 * Headless Chromium (Debian's, at /usr/bin/chromium) driven by playwright-core, for the web page's tests. Every
 * page opened through `openPage` records its console errors, uncaught exceptions and WebSocket frames; a test
 * ends by asserting that no errors came.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchBrowser } from "../../scripts/browser";
import { freePort, ServerProcess } from "./server-process";

export { CHROMIUM, launchBrowser } from "../../scripts/browser";

export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  /** Console errors and uncaught exceptions, as text. */
  errors: string[];
  /** Every WebSocket frame the page received, as text (binary frames as latin1, where card names still show). */
  framesReceived: string[];
}

/** A page in a context of its own (its own session storage), width as a phone's when asked. */
export async function openPage(browser: Browser, options: { phone?: boolean } = {}): Promise<WatchedPage> {
  const context = await browser.newContext(
    options.phone ? { viewport: { width: 375, height: 740 } } : { viewport: { width: 1100, height: 900 } },
  );
  const page = await context.newPage();
  const watched: WatchedPage = { page, context, errors: [], framesReceived: [] };
  page.on("console", (message) => {
    if (message.type() === "error") watched.errors.push(message.text());
  });
  page.on("pageerror", (error) => watched.errors.push(error.message));
  page.on("websocket", (socket) => {
    socket.on("framereceived", (frame) =>
      watched.framesReceived.push(typeof frame.payload === "string" ? frame.payload : frame.payload.toString("latin1")),
    );
  });
  return watched;
}

/** Presses Tab until the focused element satisfies `selector` (at most `limit` presses): how a keyboard user gets there. */
export async function tabTo(page: Page, selector: string, limit = 80): Promise<void> {
  for (let presses = 0; presses < limit; presses++) {
    if (await page.evaluate((wanted) => document.activeElement?.matches(wanted) ?? false, selector)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error(`no element matching ${selector} came within ${limit} presses of Tab`);
}

/** A cardhall server and a browser for one test file, with the pages it opened checked for errors after each test. */
export interface WebSuite {
  server: ServerProcess;
  browser: Browser;
  /** Opens a path of the server's in a fresh context (its own session storage). */
  open(pathname: string, options?: { phone?: boolean }): Promise<WatchedPage>;
}

export function webSuite(): WebSuite {
  const pages: WatchedPage[] = [];
  const suite = {
    open: async (pathname: string, options: { phone?: boolean } = {}) => {
      const watched = await openPage(suite.browser, options);
      pages.push(watched);
      await watched.page.goto(`${suite.server.httpUrl}${pathname}`);
      return watched;
    },
  } as WebSuite;
  beforeAll(async () => {
    suite.server = new ServerProcess(await freePort());
    await suite.server.start();
    suite.browser = await launchBrowser();
  }, 60_000);
  afterEach(async () => {
    for (const watched of pages.splice(0)) {
      expect(watched.errors).toEqual([]);
      await watched.context.close();
    }
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.server?.stop();
  });
  return suite;
}

/** Card names as the rooms encode strings on the wire (a length byte, 0xa0 | length, then the text), in latin1. */
export function wireString(text: string): string {
  return String.fromCharCode(0xa0 | text.length) + text;
}
