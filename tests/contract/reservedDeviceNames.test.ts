import { describe, expect, it } from 'vitest';
import { deviceNameKey, RESERVED_DEVICE_NAMES } from '../../server/src/devices/deviceNames';
import { ar } from '../../web/src/i18n/catalogues/ar';
import { de } from '../../web/src/i18n/catalogues/de';
import { en } from '../../web/src/i18n/catalogues/en';
import { es } from '../../web/src/i18n/catalogues/es';
import { fr } from '../../web/src/i18n/catalogues/fr';
import { ja } from '../../web/src/i18n/catalogues/ja';
import { ptBR } from '../../web/src/i18n/catalogues/pt-BR';
import { zhCN } from '../../web/src/i18n/catalogues/zh-CN';

// A device may not take the name the pages give the host ("Allowed on the host at 10:14"),
// in any language the page speaks: the server's reserved names must cover every catalogue.

const CATALOGUES = { ar, de, en, es, fr, ja, 'pt-BR': ptBR, 'zh-CN': zhCN };

describe('reserved device names', () => {
  it.each(Object.entries(CATALOGUES))('cover how the %s catalogue names the host', (_language, catalogue) => {
    for (const phrase of [catalogue.decidedAllowHost, catalogue.decidedDenyHost]) {
      const words = deviceNameKey(phrase.replace('{time}', ''));
      const named = [...RESERVED_DEVICE_NAMES].filter((name) => words.includes(name));
      expect(named, phrase).not.toEqual([]);
    }
  });
});
