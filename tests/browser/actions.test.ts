import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { act, getState } from '../support/api';
import { startTestHost, type TestHost } from '../support/testHost';
import {
  assertWebBuilt,
  launchBrowser,
  openConnected,
  PHONE,
  recordOnMutation,
  shot,
} from './browserHarness';
import { makeNoisePng } from './makePng';

/** The page's event constructors used below (this package compiles without the DOM library). */
interface PageEvents {
  DataTransfer: new () => {
    items: { add(file: File): void };
    setData(format: string, data: string): void;
  };
  DragEvent: new (type: string, init: object) => Event;
  ClipboardEvent: new (type: string, init: object) => Event;
}

describe('attachments, approvals and the 409 flow in Chromium', () => {
  let browser: Browser;
  let h: TestHost;

  beforeAll(async () => {
    assertWebBuilt();
    [browser, h] = await Promise.all([launchBrowser(), startTestHost({ echoDelayMs: 10 })]);
  });
  afterAll(async () => {
    await browser?.close();
    await h?.close(true);
  });

  it('uploads a picked file with a progress bar, lists it as pending, sends it and shows the image', async () => {
    const { page, problems, context } = await openConnected(browser, h);
    // Records every state of the progress bar, to prove one was shown while bytes left.
    const progress = await recordOnMutation(
      page,
      "[...document.querySelectorAll('progress')].map((bar) => bar.value + '/' + bar.max).join(',')",
    );
    const png = makeNoisePng(900, 900);
    await page.locator('input[type=file]').setInputFiles([
      { name: 'noise.png', mimeType: 'image/png', buffer: png },
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('some notes') },
    ]);
    const chips = page.locator('.pending .chip[data-attachment-id]');
    await expect.poll(() => chips.count(), { timeout: 10_000 }).toBe(2);
    const seen = (await progress()).filter(
      (value): value is string => typeof value === 'string' && value !== '',
    );
    expect(seen.length).toBeGreaterThan(0);
    // Each state lists every bar ("value/max", joined by commas); the picture's bar need not be
    // the last one (the two uploads finish in either order).
    expect(seen.some((s) => s.split(',').some((bar) => bar.endsWith(`/${png.length}`)))).toBe(true);
    expect((await getState(h)).conversations.pending.map((a) => a.name).sort()).toEqual([
      'noise.png',
      'notes.txt',
    ]);
    await shot(page, 'desktop-pending-attachments');

    // Remove one before sending: only the other goes with the message.
    await page.getByRole('button', { name: 'Remove notes.txt' }).click();
    await expect.poll(() => chips.count()).toBe(1);
    await page.getByRole('textbox', { name: 'Message' }).fill('look at this');
    await page.getByRole('button', { name: 'Send' }).click();
    const image = page.locator('.message-user img[alt="noise.png"]');
    await image.waitFor();
    await expect
      .poll(
        () =>
          image.evaluate((img) => {
            const loaded = img as unknown as { complete: boolean; naturalWidth: number };
            return loaded.complete && loaded.naturalWidth;
          }),
        {
          timeout: 10_000,
        },
      )
      .toBe(900);
    expect(await image.getAttribute('src')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/media\?id=[\w-]{22,}$/);
    expect(await chips.count()).toBe(0);
    const sent = (await getState(h)).conversations.messages.find((m) => m.role === 'user');
    expect(sent?.attachments.map((a) => a.name)).toEqual(['noise.png']);
    await page.getByRole('button', { name: 'Send' }).waitFor();
    await shot(page, 'desktop-image');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('takes files dropped on the chat and images pasted into the message box', async () => {
    const { page, problems, context } = await openConnected(browser, h);
    const uploadUrls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/upload')) uploadUrls.push(request.url());
    });
    const chips = page.locator('.pending .chip[data-attachment-id]');
    // A file dragged from the desktop: dragover (which must be accepted) then drop.
    await page.locator('main.chat').evaluate((chat) => {
      const { DataTransfer, DragEvent } = globalThis as unknown as PageEvents;
      const data = new DataTransfer();
      data.items.add(new File(['dropped notes'], 'dropped.txt', { type: 'text/plain' }));
      const over = new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true });
      chat.dispatchEvent(over);
      if (!over.defaultPrevented) throw new Error('the chat did not accept the drag');
      chat.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    });
    await expect.poll(() => chips.count(), { timeout: 10_000 }).toBe(1);
    // A screenshot or an image copied from a page comes as a file (beside HTML, no plain
    // text): it is attached, and the paste's default is prevented.
    const box = page.getByRole('textbox', { name: 'Message' });
    const png = [...makeNoisePng(20, 20)];
    const prevented = await box.evaluate((area, bytes) => {
      const { DataTransfer, ClipboardEvent } = globalThis as unknown as PageEvents;
      const data = new DataTransfer();
      data.setData('text/html', '<img src="x">');
      data.items.add(new File([new Uint8Array(bytes)], 'image.png', { type: 'image/png' }));
      return !area.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
      );
    }, png);
    expect(prevented).toBe(true);
    await expect.poll(() => chips.count(), { timeout: 10_000 }).toBe(2);
    // Plain text, and text with a picture of it (cells copied from a spreadsheet), are text:
    // left to the browser, nothing attached.
    for (const withPicture of [false, true]) {
      const textPasteKept = await box.evaluate(
        (area, [picture, bytes]) => {
          const { DataTransfer, ClipboardEvent } = globalThis as unknown as PageEvents;
          const data = new DataTransfer();
          data.setData('text/plain', 'a\tb\n1\t2');
          if (picture) data.items.add(new File([new Uint8Array(bytes)], 'cells.png', { type: 'image/png' }));
          return area.dispatchEvent(
            new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
          );
        },
        [withPicture, png] as const,
      );
      expect(textPasteKept).toBe(true);
    }
    // A file copied in a file manager comes with its name as text: it is attached.
    const fileManagerPaste = await box.evaluate((area) => {
      const { DataTransfer, ClipboardEvent } = globalThis as unknown as PageEvents;
      const data = new DataTransfer();
      data.setData('text/plain', 'report.txt');
      data.items.add(new File(['the report'], 'report.txt', { type: 'text/plain' }));
      return !area.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
      );
    });
    expect(fileManagerPaste).toBe(true);
    await expect.poll(() => chips.count(), { timeout: 10_000 }).toBe(3);
    const state = await getState(h);
    const pending = state.conversations.pending;
    expect(pending.map((a) => a.name).sort()).toEqual(['dropped.txt', 'image.png', 'report.txt']);
    // Each upload names the conversation on screen, so a host switch meanwhile cannot move it.
    expect(uploadUrls).toHaveLength(3);
    for (const url of uploadUrls) {
      expect(new URL(url).searchParams.get('conversationId')).toBe(state.conversationId);
    }
    expect(pending.find((a) => a.name === 'image.png')?.size).toBe(png.length);
    await shot(page, 'desktop-dropped-and-pasted');
    // Leave the host as the other tests expect it: nothing pending.
    for (const name of ['dropped.txt', 'image.png', 'report.txt']) {
      await page.getByRole('button', { name: `Remove ${name}` }).click();
    }
    await expect.poll(() => chips.count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows an approval inline and in the sidebar, and allowing it runs the tool', async () => {
    const { page, problems, context } = await openConnected(browser, h, PHONE);
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('/tool write_file {"path":"a.txt","content":"hi"}');
    await box.press('Enter');
    const inline = page.locator('.message-assistant .approval');
    await inline.waitFor();
    expect(await page.locator('.message-assistant').last().locator('.status-label-waiting').count()).toBe(1);
    expect(await inline.textContent()).toContain('write_file');
    await shot(page, 'phone-approval');
    await page.getByRole('button', { name: 'Open menu' }).click();
    const inSidebar = page.locator('.panel-approvals .approval');
    await inSidebar.waitFor();
    await page.waitForTimeout(250);
    await shot(page, 'phone-drawer-approval');
    await page.getByRole('button', { name: 'Close menu' }).first().click();

    await inline.getByRole('button', { name: 'Allow' }).click();
    await page.locator('.message-tool').waitFor();
    await expect.poll(() => inline.count()).toBe(0);
    expect(await inSidebar.count()).toBe(0);
    const workspace = (await getState(h)).projects.list[0]?.workspace.uri ?? '';
    const file = join(new URL(workspace).pathname, 'a.txt');
    expect(existsSync(file) && readFileSync(file, 'utf8')).toBe('hi');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a send refused with 409 says where it would go now and is sent only after confirming', async () => {
    const { page, problems, context } = await openConnected(browser, h);
    const before = await getState(h);
    const other = (await act(h, { action: 'newConversation', title: 'Elsewhere' })).conversationId as string;
    await act(h, { action: 'selectConversation', conversationId: before.conversationId });
    await page
      .getByRole('heading', {
        name: before.conversations.list.find((c) => c.id === before.conversationId)?.title ?? '',
      })
      .waitFor();
    const countIn = async (conversationId: string) => {
      const now = await getState(h);
      if (now.conversationId !== conversationId) return undefined;
      return now.conversations.messages.length;
    };
    const messagesBefore = await countIn(before.conversationId);

    // The host moves away just before the page's send arrives, as if the phone's user had
    // switched at the same moment: the real host answers 409.
    let switched = false;
    // What the page's actions met, said if the dialog does not come.
    const seen: string[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('/api/action')) seen.push(`answered ${response.status()}`);
    });
    await page.route('**/api/action', async (route) => {
      try {
        const action = route.request().postDataJSON()?.action;
        seen.push(`sent ${action}`);
        if (!switched && action === 'send') {
          switched = true;
          await act(h, { action: 'selectConversation', conversationId: other });
          seen.push('host moved');
        }
      } catch (error) {
        seen.push(`route failed: ${String(error)}`);
      } finally {
        // Never left hanging, whatever happened above.
        await route.continue();
      }
    });
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('where does this go?');
    // The Send button, by its name: while a reply runs (the previous test's can still be
    // streaming here under load) the same place holds an enabled Stop button of the same
    // class, and Enter does nothing. Two clean-clone CI runs timed out here after waiting for
    // `button.send` to be enabled (which the Stop button is) and pressing Enter: the likely
    // cause, read from the code (Composer.tsx), not seen in a failing run.
    await page.getByRole('button', { name: 'Send', exact: true }).click({ timeout: 15_000 });
    const dialog = page.getByRole('alertdialog');
    await dialog.waitFor({ timeout: 15_000 }).catch((error: unknown) => {
      throw new Error(`no confirmation; the page's actions: ${seen.join(', ') || 'none'}`, { cause: error });
    });
    expect(await dialog.textContent()).toContain('“Elsewhere”');
    await shot(page, 'desktop-409-confirm');
    // Nothing was sent anywhere, and the text is still there.
    expect(await box.inputValue()).toBe('where does this go?');
    expect(await countIn(other)).toBe(0);
    await act(h, { action: 'selectConversation', conversationId: before.conversationId });
    expect(await countIn(before.conversationId)).toBe(messagesBefore);
    await act(h, { action: 'selectConversation', conversationId: other });
    await page.getByRole('heading', { name: 'Elsewhere' }).waitFor();

    await dialog.getByRole('button', { name: 'Send to “Elsewhere”' }).click();
    await page.locator('.message-user .body', { hasText: 'where does this go?' }).waitFor();
    await expect.poll(() => box.inputValue()).toBe('');
    expect(await dialog.count()).toBe(0);
    expect((await getState(h)).conversations.messages[0]?.text).toBe('where does this go?');
    expect(problems).toEqual([]);
    await context.close();
  }, 40_000);
});
