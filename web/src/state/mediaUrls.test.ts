import { describe, expect, it, vi } from 'vitest';
import { createMediaUrls } from './mediaUrls';
import type { Attachment } from './types';

const attachment: Attachment = {
  id: 'a1',
  name: 'p.png',
  type: 'image/png',
  size: 3,
  media: { id: 'old-id-0000000000000000', expiresAt: 1000 },
};

describe('createMediaUrls', () => {
  it('asks once for a fresh id when the one in the state expired, and uses it', async () => {
    const fetchFresh = vi.fn(async () => ({ id: 'new-id-0000000000000000', expiresAt: 900_000 }));
    const media = createMediaUrls((ref) => `/api/media?id=${ref.id}`, fetchFresh);
    expect(media.isExpired(attachment, 2000)).toBe(true);
    await Promise.all([media.refresh('a1'), media.refresh('a1')]);
    expect(fetchFresh).toHaveBeenCalledTimes(1);
    expect(media.urlOf(attachment)).toBe('/api/media?id=new-id-0000000000000000');
    expect(media.isExpired(attachment, 2000)).toBe(false);
  });

  it('prefers a newer id from the state over an older fresh one', async () => {
    const media = createMediaUrls(
      (ref) => ref.id,
      async () => ({ id: 'fresh', expiresAt: 5000 }),
    );
    await media.refresh('a1');
    expect(media.urlOf({ ...attachment, media: { id: 'from-state', expiresAt: 9000 } })).toBe('from-state');
  });

  it('keeps the old link when the host cannot give a fresh id', async () => {
    const media = createMediaUrls(
      (ref) => ref.id,
      async () => {
        throw new Error('404');
      },
    );
    await media.refresh('a1');
    expect(media.urlOf(attachment)).toBe('old-id-0000000000000000');
  });
});
