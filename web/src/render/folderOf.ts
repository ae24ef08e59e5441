/** A workspace's folder on the host, from its `file:` URI (other URIs as they are). */
export function folderOf(uri: string): string {
  if (!uri.startsWith('file:')) return uri;
  try {
    return decodeURIComponent(new URL(uri).pathname).replace(/\/$/, '');
  } catch {
    return uri;
  }
}
