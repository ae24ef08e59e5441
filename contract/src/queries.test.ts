import { describe, expect, it } from 'vitest';
import { MAX_MEDIA_ID, mediaQuerySchema, uploadQuerySchema } from './queries';

describe('route queries', () => {
  it('caps a media id at MAX_MEDIA_ID characters, the rule the server applies', () => {
    expect(mediaQuerySchema.safeParse({ id: 'a'.repeat(MAX_MEDIA_ID) }).success).toBe(true);
    expect(mediaQuerySchema.safeParse({ id: 'a'.repeat(MAX_MEDIA_ID + 1) }).success).toBe(false);
    expect(mediaQuerySchema.safeParse({ id: '' }).success).toBe(false);
  });

  it('refuses control characters in an upload name and conversation id', () => {
    expect(uploadQuerySchema.safeParse({ name: 'photo.png', conversationId: 'c1' }).success).toBe(true);
    expect(uploadQuerySchema.safeParse({ name: 'a\nb.png' }).success).toBe(false);
    expect(uploadQuerySchema.safeParse({ name: 'a.png', conversationId: 'c\u007f' }).success).toBe(false);
  });
});
