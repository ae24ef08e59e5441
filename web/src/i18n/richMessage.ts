import type { ComponentChild } from 'preact';

/**
 * A message whose placeholders are elements rather than text, such as a name in bold: the
 * message's own word order decides where they go (`t('key')` with no params keeps `{name}`).
 *
 * @example richMessage(t('wouldGoTo'), { where: <strong>{title}</strong> })
 */
export function richMessage(
  template: string,
  slots: Readonly<Record<string, ComponentChild>>,
): ComponentChild[] {
  return template.split(/(\{\w+\})/).map((part) => {
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    return name !== undefined && name in slots ? slots[name] : part;
  });
}
