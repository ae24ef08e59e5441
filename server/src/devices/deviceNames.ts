/**
 * What two device names must not share: the same key means the same name to a person reading
 * "Allowed on Pixel 7" or a list of devices. Compatibility forms folded (NFKC: a no-break space
 * is a space, a full-width letter a letter), invisible format characters removed (a zero-width
 * space would make "Pixel 7" twice), curly apostrophes straight, runs of white space one
 * space, ends trimmed, lower case.
 *
 * @example
 * deviceNameKey('  PIXEL\u00a07 ') === deviceNameKey('pixel 7') // 'pixel 7'
 */
export function deviceNameKey(name: string): string {
  return name
    .normalize('NFKC')
    .replace(/\p{Cf}/gu, '')
    .replace(/[\u2018\u2019\u02bc]/gu, "'")
    .replace(/\s+/gu, ' ')
    .trim()
    .toLowerCase();
}

/**
 * Names no device may take: what the pages call the host itself when it answered an approval
 * ("Allowed on the host at 10:14"), in the language of each catalogue (web/src/i18n/catalogues:
 * en, ar, de, es, fr, ja, pt-BR, zh-CN), with and without its article. A device called "the
 * host" would make its own answers read as the host's. Kept as keys ({@link deviceNameKey});
 * tests/contract/reservedDeviceNames.test.ts checks every catalogue's phrase names one.
 */
export const RESERVED_DEVICE_NAMES: ReadonlySet<string> = new Set(
  [
    'the host',
    'host',
    'المضيف',
    'der host',
    'el anfitrión',
    'anfitrión',
    "l'hôte",
    'hôte',
    'ホスト',
    'o host',
    '主机',
  ].map(deviceNameKey),
);

/** Whether `name` names the host (in any catalogue's language). */
export function isReservedDeviceName(name: string): boolean {
  return RESERVED_DEVICE_NAMES.has(deviceNameKey(name));
}
