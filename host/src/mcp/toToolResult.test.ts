import { describe, expect, it } from 'vitest';
import { ToolError } from '../controller/tools/ToolError';
import { MAX_RESULT_FILE_BYTES, MAX_RESULT_FILES, MAX_RESULT_TEXT_BYTES, toToolResult } from './toToolResult';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).toString('base64');

describe('toToolResult', () => {
  it('joins text parts and attaches images, naming them in the text', () => {
    const result = toToolResult(
      {
        content: [
          { type: 'text', text: 'here:' },
          { type: 'image', data: PNG, mimeType: 'image/png' },
        ],
      },
      'get-tiny-image',
    );
    expect(result).toEqual({
      text: 'here:\n[attached get-tiny-image-image-2.png (image/png, 8 bytes)]',
      files: [{ name: 'get-tiny-image-image-2.png', type: 'image/png', data: Buffer.from(PNG, 'base64') }],
    });
  });

  it('inlines text resources (also base64 ones of a text type) and attaches binary ones', () => {
    const result = toToolResult(
      {
        content: [
          { type: 'resource', resource: { uri: 'file:///a.txt', text: 'A' } },
          {
            type: 'resource',
            resource: {
              uri: 'file:///b.json',
              mimeType: 'application/json',
              blob: Buffer.from('{}').toString('base64'),
            },
          },
          { type: 'resource', resource: { uri: 'file:///dir/../c%20d.bin', blob: PNG } },
          { type: 'resource_link', uri: 'file:///e', name: 'e' },
        ],
      },
      't',
    );
    expect(result).toMatchObject({
      text: [
        '<resource uri="file:///a.txt">\nA\n</resource>',
        '<resource uri="file:///b.json">\n{}\n</resource>',
        '[attached c d.bin (application/octet-stream, 8 bytes)]',
        '[resource e: file:///e]',
      ].join('\n'),
      files: [{ name: 'c d.bin', type: 'application/octet-stream' }],
    });
  });

  it('leaves out files that are not base64, too large or too many, with a note each', () => {
    const big = Buffer.alloc(MAX_RESULT_FILE_BYTES + 1).toString('base64');
    const many = Array.from({ length: MAX_RESULT_FILES + 1 }, () => ({
      type: 'image' as const,
      data: PNG,
      mimeType: 'image/png',
    }));
    const result = toToolResult(
      {
        content: [
          { type: 'image', data: 'not base64!', mimeType: 'image/png' },
          { type: 'image', data: big, mimeType: 'image/png' },
          ...many,
        ],
      },
      't',
    );
    expect(typeof result === 'string' ? [] : result.files).toHaveLength(MAX_RESULT_FILES);
    const text = typeof result === 'string' ? result : result.text;
    expect(text).toContain('[t-image-1.png: not valid base64, left out]');
    expect(text).toContain(`over the ${MAX_RESULT_FILE_BYTES}-byte limit, left out]`);
    expect(text).toContain(`more than ${MAX_RESULT_FILES} files, left out]`);
  });

  it('cuts long text, shows structured content without text, and says when there is nothing', () => {
    const long = toToolResult(
      { content: [{ type: 'text', text: 'x'.repeat(MAX_RESULT_TEXT_BYTES + 10) }] },
      't',
    );
    expect(typeof long === 'string' ? long : long.text).toMatch(/\n… \(cut at 262144 bytes\)$/);
    expect(toToolResult({ content: [], structuredContent: { a: 1 } }, 't')).toMatchObject({
      text: '{\n  "a": 1\n}',
    });
    expect(toToolResult({ content: [] }, 't')).toEqual({ text: '(no output)', files: [] });
  });

  it('turns an error result into a ToolError with its text', () => {
    const failing = () =>
      toToolResult({ isError: true, content: [{ type: 'text', text: 'no such file' }] }, 't');
    expect(failing).toThrow(ToolError);
    expect(failing).toThrow('no such file');
    expect(() => toToolResult({ isError: true, content: [] }, 't')).toThrow('The tool reported an error.');
  });
});
