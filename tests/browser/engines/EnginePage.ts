/** The three browser engines the cross-engine suite drives, all from Debian's packages. */
export type EngineName = 'chromium' | 'webkit' | 'firefox';

/** A screen size in CSS pixels. */
export interface Viewport {
  readonly width: number;
  readonly height: number;
}

/** Which element a step acts on: a CSS selector, optionally narrowed to one whose text contains `hasText`. */
export interface Target {
  readonly css: string;
  readonly hasText?: string;
}

/** A target as a selector alone or with its text. */
export type TargetLike = string | Target;

/**
 * One page in one engine: the few things a person does (open, type, click, press a key, pick a
 * file) and the few a test reads (text, a count, a page-side expression, a screenshot). Every
 * engine implements it over its own protocol (CDP, WebDriver classic, WebDriver BiDi), so a
 * test is written once. Elements are found by CSS selector and text, found in the page by the
 * same script in every engine (see pageScripts.ts), then acted on natively by the driver.
 */
export interface EnginePage {
  readonly engine: EngineName;
  /** Errors the page raised (uncaught exceptions and unhandled rejections), read with {@link EnginePage.problems}. */
  problems(): Promise<string[]>;
  goto(url: string): Promise<void>;
  reload(): Promise<void>;
  /** The page's current address. */
  url(): Promise<string>;
  /** Sets the viewport (the page's inner size, not the window's). */
  setViewport(size: Viewport): Promise<void>;
  /** Replaces a field's value as a paste would (one input event), then leaves it focused. */
  fill(target: TargetLike, text: string): Promise<void>;
  /** Clicks the first visible, enabled element matching the target once it holds still and a click on its centre lands on it. */
  click(target: TargetLike): Promise<void>;
  /** Presses a key with the target focused, through the engine's real key events. */
  press(target: TargetLike, key: 'Enter' | 'Escape'): Promise<void>;
  /** Types `text` into the target key by key, through the engine's real key events (it focuses the target first). */
  type(target: TargetLike, text: string): Promise<void>;
  /** Sets the files of an `<input type=file>` (absolute paths), as picking them would. */
  upload(target: TargetLike, paths: readonly string[]): Promise<void>;
  /** Evaluates page-side JavaScript text (the tests compile without the DOM library) and returns its JSON value. */
  evaluate<T>(expression: string): Promise<T>;
  /** Waits until an element matching the target is visible (or, with `gone`, until none is). */
  waitFor(target: TargetLike, options?: { timeout?: number; gone?: boolean }): Promise<void>;
  /** The text of the first element matching the target ('' if none). */
  text(target: TargetLike): Promise<string>;
  /** How many elements match the target (visible or not). */
  count(target: TargetLike): Promise<number>;
  /**
   * Grants this page's origin the notification permission, as a person answering the prompt
   * would. Throws in an engine whose driver cannot (WebKit's): such a test is skipped there by name.
   */
  grantNotifications(): Promise<void>;
  /** Saves a PNG of the viewport to tests/.artifacts/<name>.png. */
  screenshot(name: string): Promise<void>;
  /** Closes the page and whatever the engine opened for it (context, session). */
  close(): Promise<void>;
}

/** How a page is opened. */
export interface OpenOptions {
  /**
   * Page-side script to run in the page's first document as early as the engine allows, not
   * subject to the page's CSP: before the page's own scripts where the driver has init scripts
   * (Chromium; Firefox's BiDi preload scripts; later documents too), else (WebKit's WebDriver
   * classic has none) as soon as the new document answers a script, which may be after the
   * page's first scripts ran. A script that must run once guards itself.
   */
  readonly early?: string;
}

/** An engine started for one test file: opens isolated pages (own storage each), then quits. */
export interface EngineBrowser {
  readonly engine: EngineName;
  /** Opens a page with its own storage, at `viewport`, showing `url` (loaded). */
  openPage(url: string, viewport: Viewport, options?: OpenOptions): Promise<EnginePage>;
  /** Quits the browser and every process started for it (driver, virtual display). */
  close(): Promise<void>;
}
